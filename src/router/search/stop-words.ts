/**
 * Words that carry no meaning for tool search: English function words, the filler of
 * requests ("please", "can you", "I want") and the commonest articles and prepositions of
 * German, French, Spanish, Portuguese and Italian. Matched after lowercasing and accent folding.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing down during each either etc
few for from further had has have having he her here hers herself him himself his how i if
in into is it its itself just let lets me more most my myself no nor not now of off on once
only or other our ours ourselves out over own same she should so some such than that the
their theirs them themselves then there these they this those through to too under until
up very via was we were what when where which while who whom why will with would you your
yours yourself yourselves s t d ll m re ve e g eg ie
please pls want wanna need needs like help give tell could would using use used one ones
thing things something anything every
der die das den dem des ein eine einen einem einer und oder mit von zu im am auf fur ist
sind mir mich ich du sie es wir ihr bitte
le la les un une des du de et ou en au aux sur pour par avec dans est sont je tu il elle
nous vous ce cette ces qui que quoi s il l d qu
el la los las un una unos unas y o en con por para del al es son que mi me yo tu se lo
o a os as um uma e em no na nos nas com por para do da dos das que meu minha
il lo gli le un una e di da in con su per che mi`
    .split(/\s+/)
    .filter((word) => word.length > 0),
);
