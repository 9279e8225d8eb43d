/**
 * Words that never decide which skill a request is for: English function words, and the filler of a
 * request ("please", "help me", "I want to"). Left out of the index and of queries, so that a request
 * made only of them finds nothing (the old search returned a list for any request containing "the").
 * Our own list (docs/decisions.md): the usual English stop lists, plus request filler seen in the
 * labelled requests of eval/selection. No word that names a thing or an action is here: "go" is a
 * language, "get", "put", "use" and "take" are words of APIs and commands, "way", "stuff" and "quick" are
 * rare enough in skills that BM25's IDF weighs them down by itself (issue 33).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren as at be because been before being below " +
    "between both but by can cannot could couldn did didn do does doesn doing don down during each either else " +
    "etc ever every few for from further had hadn has hasn have haven having he her here hers herself him himself " +
    "his how however i if in into is isn it its itself just let lets like ll me might mine more most much must " +
    "mustn my myself no nor not now of off on once only or other ought our ours ourselves out over own per please " +
    "re same shall shan she should shouldn so some such than that the their theirs them themselves then there " +
    "these they this those through thus to too under until up upon us ve very via was wasn we were weren what " +
    "when where whether which while who whom whose why will with within without won would wouldn yet you your " +
    "yours yourself yourselves " +
    // request filler: how people ask, not what they ask for
    "able anyone anything want wants wanted need needs needed help helps hey hi hello thanks thank kindly maybe " +
    "something someone somehow really actually basically currently let's okay ok sure"
  ).split(" "),
);
