/**
 * The commonest action words and objects of tool requests in German, French, Spanish,
 * Portuguese, Italian, Chinese and Japanese, mapped to English. Latin keys are lowercase
 * and accent-folded (they match whole tokens); CJK keys match anywhere in the query, since
 * those languages do not separate words.
 */
export const TRANSLATIONS: Readonly<Record<string, string>> = {
  // German
  lies: 'read', lesen: 'read', datei: 'file', dateien: 'files', zeig: 'show', zeige: 'show', zeigen: 'show',
  inhalt: 'content', suche: 'search', suchen: 'search', finde: 'find', finden: 'find', schreib: 'write',
  schreibe: 'write', schreiben: 'write', erstelle: 'create', erstellen: 'create', losche: 'delete',
  loschen: 'delete', liste: 'list', auflisten: 'list', seite: 'page', ordner: 'folder', verzeichnis: 'directory',
  bild: 'image', bildschirmfoto: 'screenshot', nachricht: 'message', nachrichten: 'news', sende: 'send',
  senden: 'send', ausfuhren: 'run', fehler: 'error', diagramm: 'chart', karte: 'map', wetter: 'weather',
  preis: 'price', aktualisieren: 'update', herunterladen: 'download', hochladen: 'upload', offne: 'open',
  offnen: 'open', speichern: 'save', speichere: 'save', ubersetze: 'translate', ubersetzen: 'translate',
  // French
  lis: 'read', lire: 'read', fichier: 'file', fichiers: 'files', affiche: 'show', afficher: 'show',
  montre: 'show', montrer: 'show', contenu: 'content', cherche: 'search', chercher: 'search',
  recherche: 'search', rechercher: 'search', ecris: 'write', ecrire: 'write', cree: 'create', creer: 'create',
  supprime: 'delete', supprimer: 'delete', lister: 'list', dossier: 'folder', repertoire: 'directory',
  ecran: 'screen', envoie: 'send', envoyer: 'send', executer: 'run', lance: 'run', lancer: 'run',
  echouent: 'fail', echoue: 'fail', echec: 'failure', erreur: 'error', graphique: 'chart', carte: 'map',
  meteo: 'weather', prix: 'price', modifier: 'update', telecharger: 'download', ouvre: 'open', ouvrir: 'open',
  enregistre: 'save', enregistrer: 'save', trouve: 'find', trouver: 'find', aleatoire: 'random',
  traduire: 'translate', traduis: 'translate',
  // Spanish
  lee: 'read', leer: 'read', archivo: 'file', archivos: 'files', fichero: 'file', muestra: 'show',
  mostrar: 'show', muestrame: 'show', contenido: 'content', busca: 'search', buscar: 'search',
  busqueda: 'search', escribe: 'write', escribir: 'write', crea: 'create', crear: 'create', haz: 'make',
  hacer: 'make', borra: 'delete', borrar: 'delete', elimina: 'delete', eliminar: 'delete', lista: 'list',
  listar: 'list', pagina: 'page', carpeta: 'folder', directorio: 'directory', imagen: 'image',
  captura: 'screenshot', pantalla: 'screen', mensaje: 'message', envia: 'send', enviar: 'send', ejecuta: 'run',
  ejecutar: 'run', prueba: 'test', pruebas: 'tests', grafico: 'chart', barras: 'bar', mapa: 'map',
  clima: 'weather', precio: 'price', actualiza: 'update', actualizar: 'update', descarga: 'download',
  descargar: 'download', abre: 'open', abrir: 'open', guarda: 'save', guardar: 'save', encuentra: 'find',
  encontrar: 'find', noticias: 'news', ventas: 'sales', ultimas: 'latest', traduce: 'translate',
  // Portuguese and Italian
  arquivo: 'file', pesquisar: 'search', pesquisa: 'search', mostre: 'show', criar: 'create', excluir: 'delete',
  leggi: 'read', cerca: 'search', cercare: 'search', mostra: 'show',
  // Chinese
  搜索: 'search', 搜寻: 'search', 查找: 'find', 查询: 'query', 检索: 'search', 列出: 'list', 列表: 'list',
  读取: 'read', 阅读: 'read', 文件夹: 'folder', 文件: 'file', 写入: 'write', 创建: 'create', 新建: 'create',
  删除: 'delete', 更新: 'update', 修改: 'update', 页面: 'page', 网页: 'webpage', 网络: 'web', 图片: 'image',
  图像: 'image', 截图: 'screenshot', 消息: 'message', 发送: 'send', 运行: 'run', 执行: 'run', 测试: 'test',
  失败: 'fail', 错误: 'error', 图表: 'chart', 柱状图: 'bar chart', 折线图: 'line chart', 地图: 'map',
  天气: 'weather', 价格: 'price', 下载: 'download', 上传: 'upload', 打开: 'open', 关闭: 'close', 保存: 'save',
  流水线: 'pipeline', 项目: 'project', 仓库: 'repository', 新闻: 'news', 股票: 'stock', 翻译: 'translate',
  时间: 'time', 日期: 'date', 目录: 'directory', 代码: 'code', 用户: 'user', 评论: 'comment', 问题: 'issue',
  合并: 'merge', 分支: 'branch', 提交: 'commit', 最近: 'recent', 显示: 'show', 总结: 'summarize',
  // Japanese
  検索: 'search', 探す: 'find', 探して: 'find', 一覧: 'list', リスト: 'list', 読む: 'read', 読み: 'read',
  読んで: 'read', ファイル: 'file', 書く: 'write', 書き: 'write', 作成: 'create', 作って: 'create',
  削除: 'delete', ページ: 'page', ウェブ: 'web', 画像: 'image', スクリーンショット: 'screenshot',
  メッセージ: 'message', 送信: 'send', 送って: 'send', 実行: 'run', テスト: 'test', エラー: 'error',
  グラフ: 'chart', チャート: 'chart', 価格: 'price', ダウンロード: 'download', 開いて: 'open', 開く: 'open',
  閉じ: 'close', プルリクエスト: 'pull request', リポジトリ: 'repository', ブランチ: 'branch',
  コミット: 'commit', 見せて: 'show', 表示: 'show', 覚え: 'remember', 記憶: 'remember', 集計: 'aggregate',
  売上: 'sales', コレクション: 'collection', ニュース: 'news', 要約: 'summarize',
};
