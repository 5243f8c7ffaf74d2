// Package recall is the recall tool: a langchaingo tools.Tool, named
// "recall", that gives an agent back what compaction took out of its
// context (design invariant I8). Every masked tool output, cut message and
// summary shows a ref ("ref:k3f2a9qx"); the adapters keep the originals
// under their refs, per session, and hand the tool a [Resolver] that finds
// the call's session:
//
//	tool := llm.RecallTool()   // (*middleware.Model), or mem.RecallTool()
//	out, err := tool.Call(ctx, "ref:k3f2a9qx lines 40-80")
//
// An adapter builds the tool with [New] and a [Resolver]; [StoreSource]
// reads one session of a store.OriginalStore, and [OriginalOf] renders the
// original of an engine message.
//
// # Input
//
// The input is trimmed and taken out of the wrappers models put around it
// (a JSON string, a JSON object with one string field, one pair of quotes
// or backticks). Then:
//
//   - "ref:ID" (the case of "ref:" ignored, and blanks after it): the
//     original of that ref, from its first line. "ref:ID lines A-B" (also
//     "line A-B", "A–B", "A..B", "A to B", a leading comma or parenthesis,
//     a copied "of N (…)" after it): lines A to B. "ref:ID lines A": from
//     line A on. A ref not found is tried again lower-cased and without a
//     trailing full stop.
//   - anything else: a search of the session's compacted originals for its
//     words. The query is data, never a pattern: it is made one line, cut
//     to [MaxQueryBytes], and its first [MaxQueryWords] distinct words (and
//     the whole query, as a phrase) are searched with the source's literal,
//     case-insensitive search, each reading at most [WithSearchLimit]
//     originals. What is still in the context is not searched.
//
// # Answers
//
// Every answer is valid UTF-8 and within the cap ([WithMaxTokens], default
// 2,000 tokens of the counter, [WithCounter]). The formats are constants of
// package extractors, whose recall extractor recognizes them, so that an
// answer in the conversation is later masked back to one short line
// ("[✓ recall: ref:k3f2a9qx lines 1-120 of 300 | tool read_file]").
//
// An original, or one page of it:
//
//	ref:k3f2a9qx lines 1-120 of 300 (tool read_file):
//	1: package main
//	...
//	120: }
//	... 180 more lines: call recall with "ref:k3f2a9qx lines 121-240" for more
//
// The header is extractors.RecallPageHeader (what the original is: "tool
// NAME", "tool", "user", "assistant", "system" or "message"). Lines are
// numbered from 1 as "N: text", as the agent first saw them (invalid UTF-8
// replaced). A page holds as many lines as the cap allows from the first
// asked for; one that stops before the original's end closes with the
// next-page line above, whose range has the page's length. A single line
// longer than the cap is cut with
// "[… recall: line N cut here, X of its Y bytes not shown …]" and the next
// page starts at the line after it, so paging always moves on. An empty
// original is "ref:ID lines 0-0 of 0 (…):" and "(the original is empty)".
//
// A search:
//
//	search for "helper17(": 2 of 2 matching originals, best first:
//	ref:k3f2a9qx lines 40-42 of 300 (tool read_file); also matching lines 97:
//	40: // helper17 ...
//	41: func helper17(x int) int {
//	42: 	return x * 17
//	ref:m4p2b7cd lines 1-2 of 2 (assistant):
//	1: I will call helper17( next.
//	2: read_file({"path": "util.go"})
//
// The header is extractors.RecallSearchHeader ("N+" when a literal search
// read its limit, so more may match), followed by "(the query was cut to
// its first 200 bytes)" or "(only its first 8 distinct words were
// searched)" when so. Each hit is an extractors.RecallHitHeader line and
// its snippet: the best matching line with one line of context on each
// side (lines cut to about 200 bytes around the match), and up to five
// other matching line numbers. Hits are ranked: more distinct query words
// first (all above some), then a literal match of the whole query above
// scattered words, then shorter originals (fewer lines), then in the order
// found (the phrase's matches, then each word's in query order, each in
// the order stored). Hits are added in that order while the cap holds
// them; the rest are counted in a last line: `... N more matching
// originals: ref:a, ref:b, …; call recall with "ref:ID" for one, or search
// with more words`. Originals that are recall answers themselves are left
// out.
//
// One-line answers, each starting with "recall: " (extractors.RecallNotePrefix),
// echoing at most 80 bytes of the input:
//
//   - empty input: `recall: empty input; give "ref:ID" (or "ref:ID lines
//     A-B") from a compaction marker to get an original back, or words (a
//     path, a name, an error) to search the compacted originals.`
//   - not a ref: `recall: "ref:X" is not a ref; a ref is "ref:" followed by
//     letters, digits, "_", "." or "-", as a compaction marker shows it.`
//   - unreadable range: `recall: could not read "X" after ref:ID; give
//     "ref:ID" for the whole original or "ref:ID lines A-B" for some of its
//     lines.`
//   - reversed range: `recall: lines B-A of ref:ID are not a range (the
//     first comes after the last); give "ref:ID lines A-B" with A <= B.`
//   - out of range: `recall: ref:ID has N lines; lines A-B are out of range
//     (give "ref:ID lines 1-N" or a part of it).` (`recall: ref:ID is empty;
//     lines A-B are out of range.` for an empty original). A range that
//     starts within the original and ends past it is cut to its end.
//   - unknown ref: `recall: no original with ref:ID in this session; give a
//     ref a compaction marker shows, or words to search for.`
//   - no longer held (the source's error wraps [ErrNoLongerHeld]):
//     `recall: the original ref:ID is no longer held (evicted to keep memory
//     bounded); search with words for what it said.`
//   - no match: `recall: nothing compacted in this session matches "Q";
//     only compacted originals are searched, not what is still in the
//     context.`
//   - nothing compacted yet ([ErrNothingCompacted]): `recall: nothing has
//     been compacted in this session yet; everything is still in the
//     context.`
//   - no session ([ErrNoSession]): `recall: no session for this call, so
//     there are no originals to recall (a wrapped model needs
//     middleware.WithSession on the agent's context).`
//   - any other error of the resolver or the source: `recall: could not
//     read the compacted originals (the store failed); try again later, or
//     go on without them.` (logged with [WithLogger]).
//
// [Tool.Call] returns these as answers with a nil error: langchaingo's
// executor ends the run on a tool error, and an agent recovers better
// from an answer it can act on. It returns an error only when the call's
// context is done.
//
// # Security
//
// A recall answer goes to the agent only: the tool logs no recalled text
// and no query (only its resolver's and source's errors, with
// [WithLogger]). Queries never become patterns. The tool reads only the
// [Source] its [Resolver] returns for the call's own context; that the
// Source holds one session and nothing else is the resolver's contract.
package recall
