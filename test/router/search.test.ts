import { describe, expect, it } from 'vitest';
import {
  analyzeText,
  analyzeWithPhrases,
  stemWord,
  translateQuery,
} from '../../src/router/search/analyze-text.js';
import { splitArgumentValues, splitQuotedText } from '../../src/router/search/argument-values.js';
import { analyzeTool } from '../../src/router/search/bm25f-postings.js';
import { DEFAULT_SEARCH_TUNING } from '../../src/router/search/search-tuning.js';
import { thesaurusExpansion, thesaurusSynonymsOf } from '../../src/router/search/thesaurus.js';
import thesaurusData from '../../src/router/search/thesaurus-data.json' with { type: 'json' };
import { tokenize } from '../../src/router/search/tokenize.js';
import { ToolAnalysisCache } from '../../src/router/search/tool-analysis-cache.js';
import { createToolSearchIndex } from '../../src/router/search/tool-search-index.js';
import { Vocabulary } from '../../src/router/search/vocabulary.js';
import { CORPUS_TOOLS } from './tool-index-corpus.js';

const words = (text: string) => tokenize(text).map((token) => token.text);

describe('tokenize', () => {
  it('splits snake_case, kebab-case, camelCase, acronyms and digits, lowercased', () => {
    expect(words('read_text_file')).toEqual(['read', 'text', 'file']);
    expect(words('API-post-search')).toEqual(['api', 'post', 'search']);
    expect(words('getXMLHttpRequest')).toEqual(['get', 'xml', 'http', 'request']);
    expect(words('base64Encode v2')).toEqual(['base', '64', 'encode', 'v', '2']);
  });

  it('folds accents and full-width forms but keeps kana intact', () => {
    expect(words("Fais une capture d'écran")).toEqual(['fais', 'une', 'capture', 'd', 'ecran']);
    expect(words('ＡＢＣ１２３')).toEqual(['abc', '123']);
    expect(words('ガイド')).toEqual(['ガイド']);
  });

  it('cuts Han text into bigrams, keeps katakana words whole and drops hiragana particles', () => {
    expect(words('在Notion里搜索')).toEqual(['在', 'notion', '里搜', '搜索']);
    expect(words('プルリクエストを見せて')).toEqual(['プルリクエスト', '見']);
    expect(tokenize('页面').every((token) => token.cjk)).toBe(true);
  });
});

describe('analyzeText', () => {
  it('drops stop words and stems with Porter', () => {
    expect(analyzeText('Searching for the files')).toEqual([stemWord('searching'), stemWord('files')]);
    expect(stemWord('searching')).toBe(stemWord('search'));
    expect(stemWord('directories')).toBe(stemWord('directory'));
  });

  it('translates common action words of other languages', () => {
    expect(translateQuery('Lies die Datei und zeig mir den Inhalt')).toEqual(
      expect.arrayContaining(['read', 'file', 'show', 'content']),
    );
    expect(translateQuery('在 Notion 里搜索页面')).toEqual(expect.arrayContaining(['search', 'page']));
    expect(translateQuery('Прочитай файлы')).toEqual(['read', 'file']);
    expect(translateQuery('파일을 삭제해줘')).toEqual(['file', 'delete']);
  });

  it('expands a word by prefix and by one typo (insert, delete, substitute, swap), no more', () => {
    const vocabulary = new Vocabulary(['search', 'searches', 'seal', 'repositori', 'repo']);
    expect(vocabulary.withPrefix('repo', 5)).toEqual(['repositori']);
    expect(vocabulary.withPrefix('sea', 5)).toEqual(['seal', 'search', 'searches']);
    for (const typo of ['serach', 'seach', 'searcch', 'seerch'])
      expect(vocabulary.near(typo, 5)).toContain('search');
    expect(vocabulary.near('sarech', 5)).toEqual([]);
  });
});

describe('splitArgumentValues', () => {
  const split = (query: string) => splitArgumentValues(query, (word) => word === 'Slack');

  it('takes quoted text, paths, slugs and proper names out of the intent', () => {
    const parts = split("Move every issue on octocat/hello-world from 'Sprint 4' to Project Falcon");
    expect(parts.values).toEqual(['octocat/hello-world', "'Sprint 4'", 'Project Falcon']);
    expect(analyzeText(parts.intent)).toEqual(analyzeText('Move every issue on from to'));
    expect(parts.implied).toEqual([]);
  });

  it('names what a value shape implies: file, website, email, channel, user', () => {
    expect(split('Read backup.tar.gz and out/headlines.txt').implied).toEqual(['file', 'file']);
    expect(split('Map docs.stripe.com and https://example.com/a?b=1').implied).toEqual([
      'website',
      'website',
    ]);
    expect(split('Mail bob@example.com').implied).toEqual(['email']);
    expect(split('Post in #deploys and ping @alice').implied).toEqual(['channel', 'user']);
  });

  it('keeps sentence starts, acronyms, product names, server names and German nouns as intent', () => {
    for (const query of [
      'Show the CI/CD runs of Node.js apps, e.g. the failed ones',
      "Search Slack for the reviewers' comments",
      'Lies die Datei und zeig mir den Inhalt',
    ])
      expect(split(query)).toEqual({ intent: query, values: [], implied: [] });
  });
});

describe('quoted text in tool descriptions', () => {
  const fillForm = {
    name: 'fill_form',
    description: 'Fill out several form fields at once, e.g. check "Remember Me" and type \'admin\'.',
  };

  it('is split out of the description into its own low-weight field', () => {
    expect(splitQuotedText(fillForm.description).quoted).toEqual(['"Remember Me"', "'admin'"]);
    const terms = analyzeTool(fillForm, DEFAULT_SEARCH_TUNING);
    expect(terms.quoted).toEqual([stemWord('remember'), 'admin']);
    expect(terms.description).not.toContain(stemWord('remember'));
    expect(terms.description).toContain(stemWord('form'));
  });

  it('counts for less than the words that say what the tool does', () => {
    const tools = [fillForm, { name: 'click', description: 'Click an element of the page' }];
    const scoreWith = (quoted: number) =>
      createToolSearchIndex(tools, {
        ...DEFAULT_SEARCH_TUNING,
        fieldWeights: { ...DEFAULT_SEARCH_TUNING.fieldWeights, quoted },
      }).search('remember me')[0]?.score ?? 0;
    expect(scoreWith(DEFAULT_SEARCH_TUNING.fieldWeights.quoted)).toBeLessThan(scoreWith(1));
    expect(DEFAULT_SEARCH_TUNING.fieldWeights.quoted).toBeLessThan(
      DEFAULT_SEARCH_TUNING.fieldWeights.description,
    );
  });
});

describe('createToolSearchIndex across languages and rebuilds', () => {
  const chinese = [
    { name: 'trends/get_hot_list', server: 'trends', description: '获取科技新闻和热门资讯' },
    { name: 'files/read_file', server: 'files', description: 'Read a file from disk.' },
    { name: 'station/city_report', server: 'station', description: 'Weather forecast for a city.' },
  ];

  it('finds a tool described only in Chinese from an English request', () => {
    const index = createToolSearchIndex(chinese);
    expect(index.search('technology news', { limit: 1 }).map((hit) => hit.name)).toEqual([
      'trends/get_hot_list',
    ]);
    const untranslated = createToolSearchIndex(chinese, {
      ...DEFAULT_SEARCH_TUNING,
      translateDocuments: false,
    });
    expect(untranslated.search('technology news', { limit: 5 }).map((hit) => hit.name)).not.toContain(
      'trends/get_hot_list',
    );
  });

  it('reuses cached analysis for unchanged tools and still sees changed ones', () => {
    const cache = new ToolAnalysisCache();
    const first = createToolSearchIndex(chinese, DEFAULT_SEARCH_TUNING, cache);
    const changed = [
      ...chinese.slice(0, 2),
      { ...chinese[2]!, description: 'Current air quality for a city.' },
    ];
    const second = createToolSearchIndex(changed, DEFAULT_SEARCH_TUNING, cache);
    expect(first.search('forecast', { limit: 1 }).map((hit) => hit.name)).toEqual(['station/city_report']);
    expect(second.search('forecast', { limit: 1 })).toEqual([]);
    expect(second.search('air quality', { limit: 1 }).map((hit) => hit.name)).toEqual([
      'station/city_report',
    ]);
    expect(second.search('read a file', { limit: 1 }).map((hit) => hit.name)).toEqual(['files/read_file']);
  });
});

describe('createToolSearchIndex on a real catalog', () => {
  const entries = CORPUS_TOOLS.map((tool) => ({
    name: `${tool.server}/${tool.name}`,
    server: tool.server,
    category: tool.server,
    originalName: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
  }));
  const index = createToolSearchIndex(entries);
  const top = (query: string, limit = 3) => index.search(query, { limit }).map((hit) => hit.name);

  it('finds the right tool above its distractors', () => {
    expect(top('post a message to a slack channel')[0]).toBe('server-slack/slack_post_message');
    expect(top('open a pull request on github')[0]).toBe('server-github/create_pull_request');
    expect(top('driving directions between two addresses')[0]).toBe('server-google-maps/maps_directions');
    expect(top('run a read-only SQL query')[0]).toBe('server-postgres/query');
  });

  it('ranks a tool deprecated in favour of another below its replacement', () => {
    expect(top('read the complete contents of a file as text', 2)).toEqual([
      'server-filesystem/read_text_file',
      'server-filesystem/read_file',
    ]);
    const neutral = createToolSearchIndex(entries, { ...DEFAULT_SEARCH_TUNING, deprecatedFactor: 1 });
    expect(neutral.search('read the complete contents of a file as text', { limit: 1 })[0]?.name).toBe(
      'server-filesystem/read_file',
    );
  });

  it('matches inflected forms through stemming', () => {
    expect(top('listing commits')).toContain('server-github/list_commits');
    expect(top('moved files', 2)).toContain('server-filesystem/move_file');
  });

  it('matches through synonyms that no tool text contains', () => {
    const withSynonyms = top('erase entities from the knowledge graph', 1);
    expect(withSynonyms).toEqual(['server-memory/delete_entities']);
    const without = createToolSearchIndex(entries, { ...DEFAULT_SEARCH_TUNING, synonymWeight: 0 });
    expect(without.search('erase', { limit: 5 })).toEqual([]);
    expect(index.search('erase', { limit: 5 }).length).toBeGreaterThan(0);
  });

  it('matches through WordNet synonyms of the tool words, which the curated table lacks', () => {
    const shop = [
      { name: 'buy_item', description: 'Buy an item from the shop' },
      { name: 'sell_item', description: 'Sell an item in the shop' },
    ];
    expect(
      createToolSearchIndex(shop)
        .search('purchase', { limit: 5 })
        .map((hit) => hit.name),
    ).toEqual(['buy_item']);
    const without = createToolSearchIndex(shop, {
      ...DEFAULT_SEARCH_TUNING,
      fieldWeights: { ...DEFAULT_SEARCH_TUNING.fieldWeights, thesaurus: 0 },
    });
    expect(without.search('purchase', { limit: 5 })).toEqual([]);
  });

  it('ships the WordNet license with the generated synonym table', () => {
    expect(thesaurusData.license).toContain('WordNet 3.0 Copyright 2006 by Princeton University');
    expect(thesaurusSynonymsOf(stemWord('purchase'))).toContain(stemWord('buy'));
    expect(thesaurusSynonymsOf('constructor')).toEqual([]);
  });

  it('gives the words of a product name no WordNet synonyms', () => {
    expect(thesaurusExpansion(['brave', 'search'])).toContain(stemWord('weather'));
    expect(thesaurusExpansion(['brave', 'search'], ['brave'])).not.toContain(stemWord('weather'));
  });

  it('expands partial words and typos', () => {
    expect(top('repo fork', 1)).toEqual(['server-github/fork_repository']);
    expect(top('serach repositories', 1)).toEqual(['server-github/search_repositories']);
  });

  it('understands common non-English requests', () => {
    expect(top('Lies die Datei config.json und zeig mir den Inhalt', 5)).toContain(
      'server-filesystem/read_text_file',
    );
    expect(top('在地图上搜索附近的咖啡店', 5).some((name) => name.startsWith('server-google-maps/'))).toBe(
      true,
    );
    // Russian stems match any ending; Korean words match with their particles attached.
    expect(top('Найди файлы в папке', 3)).toContain('server-filesystem/search_files');
    expect(top('Отправь сообщение в канал', 1)).toEqual(['server-slack/slack_post_message']);
    expect(top('파일을 읽어줘', 3)).toContain('server-filesystem/read_text_file');
    expect(top('브랜치를 만들어줘', 1)).toEqual(['server-github/create_branch']);
  });

  it('counts argument values for little and uses what their shape implies', () => {
    const literal = createToolSearchIndex(entries, { ...DEFAULT_SEARCH_TUNING, argumentValueWeight: 1 });
    const quoted = "Remember that 'Search Issues' is Dave's favourite view";
    expect(top(quoted).every((name) => name.startsWith('server-memory/'))).toBe(true);
    expect(literal.search(quoted, { limit: 3 }).map((hit) => hit.name)).toContain(
      'server-brave-search/brave_web_search',
    );
    const channel = 'Let the team know in #general that lunch is here';
    expect(top(channel, 2).every((name) => name.includes('channel'))).toBe(true);
    expect(literal.search(channel, { limit: 1 })[0]?.name).not.toContain('channel');
  });

  it('lifts the tools of a server the request names, but not for a generic word', () => {
    const plain = createToolSearchIndex(entries, { ...DEFAULT_SEARCH_TUNING, serverMentionBoost: 0 });
    const scoreOf = (hits: { name: string; score: number }[], name: string) =>
      hits.find((hit) => hit.name === name)?.score;
    const boosted = index.search('search in memory', { limit: 5 });
    const unboosted = plain.search('search in memory', { limit: 5 });
    const memory = 'server-memory/search_nodes';
    expect(scoreOf(boosted, memory)).toBeCloseTo(scoreOf(unboosted, memory)! * 1.5);
    // `search` is in `server-brave-search`, but half the catalog searches: it names no server.
    const brave = 'server-brave-search/brave_web_search';
    const search = (target: typeof index) => target.search('search', { limit: 50 });
    expect(scoreOf(search(index), brave)).toBeCloseTo(scoreOf(search(plain), brave)!);
  });

  it('matches phrases only where the words are truly adjacent', () => {
    expect(analyzeWithPhrases('entities in the knowledge graph').phrases).toEqual([
      `${stemWord('knowledge')} graph`,
    ]);
    expect(top('erase entities from the knowledge graph', 1)).toEqual(['server-memory/delete_entities']);
  });

  it('filters by category and server, and respects the limit', () => {
    const slackOnly = index.search('list', { limit: 50, category: 'server-slack' });
    expect(slackOnly.length).toBeGreaterThan(0);
    expect(slackOnly.every((hit) => hit.name.startsWith('server-slack/'))).toBe(true);
    expect(
      index
        .search('file', { server: 'server-github', limit: 50 })
        .every((hit) => hit.name.startsWith('server-github/')),
    ).toBe(true);
    expect(index.search('file', { limit: 2 })).toHaveLength(2);
  });

  it('returns nothing for a query without meaningful words and ranks by descending score', () => {
    expect(index.search('the of and', { limit: 5 })).toEqual([]);
    const scores = index.search('create', { limit: 10 }).map((hit) => hit.score);
    expect(scores).toEqual([...scores].sort((left, right) => right - left));
  });
});
