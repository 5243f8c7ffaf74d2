// Package extractors turns old tool outputs into their key facts, per tool,
// so that an agent's context keeps what a tool said without what it
// printed. It is a leaf package: it imports langchaingo's llms and the
// standard library only.
//
// # Extractors and summaries
//
// An [Extractor] turns one output into a [ToolSummary]: the tool name, a
// [Status] (success, error or partial), a few key facts and metadata that the
// digest reads (files read and modified, command, exit code, exceptions; see
// the Meta* keys). [Func] adapts a plain function. Extractors must be
// deterministic, safe for concurrent use and must not panic; the
// extractortest package checks all three on hostile inputs.
//
// # Format
//
// [Format] renders a summary as one line of at most [FormatMaxBytes] (600)
// bytes:
//
//	line   = "[" symbol " " tool [ ": " fact { " | " fact } ] "]"
//	symbol = "✓" (success) | "❌" (error) | "⚠" (partial)
//
// for example
//
//	[✓ read_file: File: app/main.go | Lines: 120 | Type: go | Defines: Serve, New]
//	[❌ bash: $ python3 repro.py | exit 1 | Error: ValueError at repro.py:3: empty input | Output: 4 lines]
//
// Facts are single lines; a fact that does not fit is cut with "…" and the
// facts after it are counted as "+N more".
//
// # The registry
//
// A [Registry] maps tool names to extractors, case-insensitively (langchaingo
// agents may upper-case tool names) and through aliases ([Registry.Alias],
// [WithAlias]). Unknown tools go to [Fallback]: size, first and last lines,
// first error line. [Default] returns a new registry with every built-in;
// [NewRegistry] an empty one. [Registry.Extract] never panics (a panicking
// extractor is replaced by the fallback for that call), cleans every fact to
// one line of at most [MaxFactBytes] bytes, keeps at most [DefaultMaxFacts]
// facts ([WithMaxFacts], [WithToolMaxFacts]) and redacts secrets.
//
// Per-tool options: [WithVerbatim] marks tools whose outputs the engine keeps
// verbatim ([Registry.Verbatim] reports it; Extract still summarizes them for the
// digest). [WithExclude] marks tools whose old outputs are worth nothing
// (listings, progress chatter): they are still masked, to a bare size line
// ("output dropped: 12 lines, 340 B") with no extraction. A tool marked both
// is kept verbatim.
//
// # Built-ins
//
// Registered by [Default] under the names listed there; [Builtin] returns one
// family for use outside a registry.
//
//   - shell (bash, execute, ...): the command line is parsed (quotes, pipes,
//     &&, ;, redirections, here-documents, env assignments, sudo/timeout
//     wrappers) and each pipeline is routed: reads (cat, nl -ba f | sed -n
//     'a,bp', head, tail, sed -n), searches (grep, rg, find, ls, with pipes
//     into grep), writes (cat <<'EOF' > f, echo >> f, tee, sed -i, rm, mv,
//     cp, touch), test runs (pytest, go test, jest/vitest, cargo test,
//     unittest and Django runtests.py, npm test, make test), git (diff, show,
//     log, status), curl/wget and sqlite3/psql/mysql. The exit status is read
//     in its common forms: mini-swe-agent's <returncode>N</returncode> (with
//     its <output_head>/<elided_chars>/<output_tail> and timeout notices),
//     SWE-agent's "(Open file: …)(Current directory: …)bash-$" suffix and
//     "EXECUTION TIMED OUT", and trailing "exit code N", "Exit status: N",
//     "Process exited with code N", "returned non-zero exit status N".
//     Facts: the command, "exit N" for any non-zero status, the test summary
//     and failing tests, the exceptions raised with their location
//     ("ValueError at foo.py:12: msg"), the files written, output size, first
//     and last lines.
//   - file reads (read_file, open, view, cat, goto, scroll_*, decompile, ...):
//     path, line range (from arguments, nl/cat -n numbering or SWE-agent's
//     "[File: … (N lines total)]" header), language, definitions (top-level
//     first) for Go, Python, JavaScript/TypeScript, Rust, Java-like and C-like
//     code, import count.
//   - searches (grep, rg, search_dir, search_file, find_file, find, glob, ls):
//     pattern, where, match and file counts, top files.
//   - writes and edits (write_file, create, edit, str_replace, insert, ...):
//     path and lines changed (from old_str/new_str, search/replace,
//     start_line/end_line, content), the file's new length, rejected edits.
//   - git and submit: diff stat per file, --stat listings, log (commits,
//     latest), status (branch, changed files).
//   - HTTP fetches: URL, status line, content type, size, HTML title or JSON
//     shape.
//   - JSON outputs (json, jq, and any tool without an extractor of its own):
//     the object named by its identifier and short values ("order ord_8812:
//     customer_id cus_19, status shipped, total 1240.5"), every identifier it
//     returned ([MetaIdentifiers]: id, *_id, *_number, ... keys and id-looking
//     strings in lists), its lists with their length and their elements' ids,
//     the top-level keys when no identifier names it; "error" fields.
//   - SQL results: query, rows (from "(N rows)", "N rows in set" or counted),
//     columns (psql, mysql boxes, sqlite3).
//   - recall (the recall tool's own answers, see [RecallPageHeader]): a
//     recalled original becomes its ref and line range
//     ("[✓ recall: ref:k3f2a9qx lines 1-120 of 300 | tool read_file]"), a
//     search its query and the refs it found, so recalling does not grow
//     the context for good.
//
// Tools registered under no name are matched by the shape of their
// arguments ([Shape], [Registry.RegisterShape]) before the fallback: a path
// with new content is a write, a pattern or query a search, a path alone a
// read, a url a fetch, a command a shell command. The fallback keeps an
// output of at most 200 bytes (3 lines) whole, describes a JSON output as
// above, and otherwise gives the size, first and last lines and errors.
// Whatever the extractor, the registry adds the exceptions an output raised
// (Python, Go, Java, JavaScript and Rust forms, ANSI-coloured notebook
// tracebacks) and its test-run summary when the facts do not name them
// (shell commands, reads and searches excepted: their extractors read
// them, or show text rather than what a tool raised).
//
// All built-ins run in time linear in the output (regular expressions are
// compiled once and only run on the few lines a cheap substring test
// selects); 10 MB outputs are fine.
//
// # Redaction
//
// [Redact] replaces secrets with "[REDACTED:kind]": AWS access key ids,
// GitHub, Slack, OpenAI/Anthropic/Stripe/Google style keys and tokens, JWTs,
// bearer tokens, private key blocks, passwords in URLs, .env style
// assignments to secret-named upper-case keys and quoted literals assigned to
// secret-named keys, secret-looking values of secret-named keys in any case
// (db_password=..., spring.datasource.password: ...), and credentials by the
// form that carries them: command-line passwords (mysql -pPASS, --password
// X, sshpass -p X, curl -u user:pass), authorization and secret-named HTTP
// headers (Authorization: Basic ..., X-Api-Key: ..., Cookie: ...) and prose
// ("the password is X"). The registry applies it to every fact, metadata
// value and digest item; [Builtin] extractors apply it themselves. Values
// under a secret-named JSON key (*key*, *token*, *secret*, *passw*,
// credential, authorization, cookie, auth) are never identifiers nor facts.
// [SecretValues] lists the values Redact removes from a text, and
// [RedactValues] also clears their bare repeats: the engine uses them on
// every summary, whoever wrote it.
//
// # The digest
//
// [Registry.Digest] is the rule-based summary of the messages compaction
// drops (the engine's stage 2, and the LLM summarizer's fallback). It
// aggregates rather than lists: every path the calls name, grouped by what
// was done to it (modified, created, read, searched, listed, tested, run:
// a path created and then changed is listed as created; as written,
// deduplicated, most recent first: the extractors' Meta* path lists, then
// every other path of the arguments by internal/callpaths, the definition
// the evaluation measures), commands with their status ("pytest tests/x.py
// (exit 1)"; plain reads and writes are in the path lists), errors
// (exceptions with location, failed tests; the names of the exceptions
// raised are kept apart, longer), the user's instructions and
// decisions (sentences with "remember", "must", "never", "always", "don't",
// "should", "only", "please", "decided", "we will", "make sure", "instead
// of", ...; [Instructions]) as standing orders, the task's first, the
// identifiers business tools returned per call (Records), the user's
// questions, and domain entities (paths, exception names, definitions, tool
// names). Tool results are matched to their calls by id ([CallsByID],
// [ResolveCall]), since langchaingo's functions agent leaves result names
// empty. The previous digest of the chain is folded in: its lists are
// carried forward behind the new items, its narrative is kept in
// Digest.Previous and the paths the narrative names in
// Digest.FilesMentioned.
//
// [Digest.Render] fits a token cap by priority, never by cutting the tail,
// and paths and identifiers go last: the header, then the file index
// (every path on one line, grouped by what was done, each written whole as
// the call wrote it so that a substring search finds it, those of one
// directory side by side; when they overflow, the paths another path holds
// go first, then the oldest, and "+N more paths (recall finds them by
// name)" says how many), the entities, then short forms of the
// instructions, errors, commands and open questions (a first round gives
// each a share of the room left so that no single category crowds out the
// others, a second hands out what is left in priority order), the previous
// narrative (shortened), and the items' full forms last; a final check
// against the caller's counter shrinks the full forms, the narrative, then
// the least important items until the text fits. [Digest.RenderIndexed]
// lets the file index of a long run take room beyond the cap (the engine
// gives its rule-based summaries Compactor.IndexCap), keeping part of the
// cap for the records, instructions and errors. [Digest.KeyPoints] gives
// one line per category, the lines of paths holding every path, a few
// hundred of a long run (the rule-based summarizer carries the chain
// through them).
package extractors
