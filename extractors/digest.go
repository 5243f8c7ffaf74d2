package extractors

import (
	"regexp"
	"strings"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/internal/reclass"
	"github.com/agentcompact/compact/internal/refid"
	"github.com/tmc/langchaingo/llms"
)

// Caps of the lists a [Digest] keeps (most recent first; older items drop).
const (
	maxDigestCommands     = 25
	maxDigestErrors       = 15
	maxDigestRaised       = 100
	maxDigestInstructions = 15
	maxDigestQuestions    = 8
	maxDigestEntities     = 300
	// maxDigestSeen caps the names of tool outputs a digest adds to its
	// entities, most recent first: 40 kept the 32k window's cost with
	// caching at 0.65 of none (docs/eval/report.md).
	maxDigestSeen       = 40
	maxDigestRecords    = 200
	maxRecordIDs        = 16
	maxDigestItemBytes  = 200
	maxInstructionBytes = 160
	maxDigestPrevious   = 4000
)

// Digest is the rule-based summary of a run of messages that compaction
// drops: an aggregate, not a list of per-call lines. Lists are
// deduplicated, most recent first, and capped. A Digest is a plain value;
// [Registry.Digest] returns a new one with fresh slices.
type Digest struct {
	// Messages and ToolCalls count the messages and tool calls summarized,
	// including those of the previous digests in the chain.
	Messages, ToolCalls int
	// FilesRead and FilesModified are the files read and changed.
	FilesRead, FilesModified []string
	// FilesCreated are the files and directories the summarized calls
	// created: by an editor's "create" command (str_replace_editor,
	// OpenHands, Moatless), create_file, Moatless' CreateFile or
	// SWE-agent's create; or by a call that also succeeds on an existing
	// path (Claude Code's Write, write_file, touch, mkdir -p, "> file",
	// tee; not ">>") when no earlier call of the chain named the path: a
	// Write to a file read or edited before is a change. A path created
	// and then changed is listed here only, the first thing done to it.
	FilesCreated []string
	// FilesSearched are the files and folders searched (grep PATTERN FILE,
	// find DIR -name X, search_dir X DIR); FilesListed the folders listed
	// (ls DIR, tree DIR, find DIR); FilesTested the test files and test ids
	// run (pytest tests/test_x.py::test_y); FilesRun the scripts run and the
	// files given to other commands (python reproduce.py, git diff a.py).
	//
	// The path lists (these and FilesRead, FilesModified, FilesCreated) hold every path
	// the summarized calls name (the definition of internal/callpaths) and
	// the files their outputs' facts name, each as written in the call
	// (absolute paths too), deduplicated within its list. Render keeps
	// them before anything else.
	FilesSearched, FilesListed, FilesTested, FilesRun []string
	// FilesMentioned are the paths the previous summary's narrative
	// (Previous, as given to Digest) names that no other list holds: the
	// paths of an LLM summary folded in, kept when Render shortens the
	// narrative.
	FilesMentioned []string
	// Records are the identifiers tools returned as JSON, per call, most
	// recent first: what was looked up, booked or changed, e.g.
	// "cancel_reservation: reservation HATHAU, HAT136, credit_card_4421486
	// (error)". Render keeps them right after the paths.
	Records []string
	// Commands are the commands run, with their status, e.g.
	// "pytest tests/test_x.py (exit 1)". Plain file reads and writes are
	// not listed here (they are in the file lists) unless they failed.
	Commands []string
	// Errors are the errors seen, e.g. "ValueError at foo.py:12: bad value".
	Errors []string
	// Raised are the names of the exceptions the tools reported raised
	// ("ValueError"), most recent first: a long run keeps them after its
	// Errors items are gone.
	Raised []string
	// Instructions are the user's instructions and decisions: sentences
	// with "remember", "must", "never", "always", "don't", "should",
	// "please", "only", "decided", "we will use", "make sure", "instead of",
	// ... Unlike the other lists they are standing orders: the task's (the
	// conversation's first user message) come first, in their order, then
	// the previous digests', then the new ones, most recent first.
	Instructions []string
	// Questions are the user's questions, most recent first.
	Questions []string
	// Entities are the domain entities (exception names, defined
	// identifiers, tool names, the paths the path lists do not hold),
	// carried forward from the previous digest. The paths of the path
	// lists (the file index) take no place among them.
	Entities []string
	// Previous is the narrative of the previous summary in the chain, folded
	// in; Render shortens it as needed.
	Previous string
}

var (
	// directiveRe finds the sentences of instructionRe that tell the agent
	// what to do or not to do (rather than record a decision or a plan).
	directiveRe = regexp.MustCompile(`(?i)\b(?:remember|must|mustn't|never|always|don't|do not|dont|make sure|ensure|important|required|should|shouldn't|avoid|only|please|need to|needs to|from now on|keep in mind)\b`)
	// instructionRe finds sentences that carry an instruction or decision.
	instructionRe = regexp.MustCompile(`(?i)\b(?:remember|must|mustn't|never|always|don't|do not|dont|make sure|ensure|decided|decide|decision|we will|we'll|we are going to|let's|lets use|instead of|prefer|important|required|requirement|should|shouldn't|avoid|only|please|need to|needs to|from now on|keep in mind|note that)\b`)
)

// Digest aggregates msgs (oldest first) on top of prev, the digest of the
// messages dropped before (the chain). Tool results are summarized with r's
// extractors; a result's tool name and arguments come from the call with the
// same id when the result does not carry them. Lists of prev are carried
// forward behind the new items. msgs and prev are not modified. Safe for
// concurrent use.
func (r *Registry) Digest(msgs []llms.MessageContent, prev Digest) Digest {
	return r.DigestRefs(msgs, nil, prev)
}

// DigestRefs is [Registry.Digest] with the refs of msgs, index for index
// (the ids the recall tool takes after "ref:"; nil or of another length:
// none): every error item of a tool result ends with its message's ref,
// " ref:ID", so that the summary points at the original an error came from.
func (r *Registry) DigestRefs(msgs []llms.MessageContent, refs []string, prev Digest) Digest {
	calls := CallsByID(msgs)
	answered := make(map[string]bool)
	n := digestBuilder{named: namedBy(prev)}
	n.d.Messages = prev.Messages + len(msgs)
	n.d.ToolCalls = prev.ToolCalls
	for i, m := range msgs {
		n.ref = ""
		if len(refs) == len(msgs) && refs[i] != "" {
			n.ref = " " + refid.Prefix + refs[i]
		}
		for _, p := range m.Parts {
			if tc, ok := toolCallPart(p); ok {
				n.d.ToolCalls++
				if tc.FunctionCall != nil {
					n.entity(tc.FunctionCall.Name)
					for _, e := range ArgumentNames(Redact(tc.FunctionCall.Arguments)) {
						n.entity(e)
					}
				}
				continue
			}
			if resp, ok := toolResponsePart(p); ok {
				answered[resp.ToolCallID] = true
				call := ResolveCall(resp, calls)
				n.record(call, r.Extract(call, resp.Content), true)
				n.outputNames(resp.Content)
				continue
			}
			if txt, ok := textPart(p); ok {
				switch m.Role {
				case llms.ChatMessageTypeHuman, llms.ChatMessageTypeGeneric:
					n.userText(txt, prev.Messages == 0 && !n.sawUser)
					n.sawUser = true
				case llms.ChatMessageTypeTool, llms.ChatMessageTypeFunction:
					// A tool result given as plain text: no call to match.
					n.record(Call{Name: "tool"}, r.Extract(Call{Name: "tool"}, txt), true)
					n.outputNames(txt)
				case llms.ChatMessageTypeAI:
					// The names the agent wrote: what it goes on to reuse.
					n.names(txt)
				}
			}
		}
	}
	// Calls whose results are not among msgs: record what the call names.
	for _, m := range msgs {
		for _, p := range m.Parts {
			tc, ok := toolCallPart(p)
			if !ok || tc.FunctionCall == nil || answered[tc.ID] {
				continue
			}
			call := Call{ID: tc.ID, Name: tc.FunctionCall.Name, Arguments: tc.FunctionCall.Arguments}
			n.ref = ""
			n.record(call, r.Extract(call, ""), false)
		}
	}
	return n.finish(prev)
}

// digestBuilder collects items oldest first.
type digestBuilder struct {
	d Digest
	// task holds the instructions of the conversation's first user message
	// (the task), when the messages summarized start the conversation.
	task    []string
	sawUser bool
	// named holds the paths the calls named so far, those of the previous
	// digests too: a Write to one of them is no creation.
	named namedPaths
	// texts holds, by their place among the entities, the agent's texts
	// whose names are entities (names).
	texts map[int]string
	// outputs holds the tool outputs read (outputNames), oldest first:
	// their names are taken at the end, from the newest back, until the
	// digest has its maxDigestSeen (recentOutputNames).
	outputs []string
	// ref is " ref:ID" of the message being read, or "".
	ref string
}

// names adds the names txt holds (Names) as entities, when finish asks
// for them: it marks their place among the entities (a "" entry, which
// entity never adds) and keeps txt (see recentEntities).
func (n *digestBuilder) names(txt string) {
	if n.texts == nil {
		n.texts = map[int]string{}
	}
	n.texts[len(n.d.Entities)] = txt
	n.d.Entities = append(n.d.Entities, "")
}

// namesOf returns the names txt holds (Names) as entity adds them.
func namesOf(txt string) []string {
	var out []string
	for _, e := range Names(Redact(txt)) { // I10: no secret value as a name
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// recentEntities returns the entities, the most recent first, then prev's,
// that no path list of d holds, deduplicated, at most maxDigestEntities:
// the names of the agent's texts are read from the newest back, and only
// until the list is full (redacting and scanning every text of a long run
// for the names of its last few was much of a cold compaction's time;
// dedupe keeps first occurrences, so the older ones could not change the
// result).
func (n *digestBuilder) recentEntities(d Digest, prev []string) []string {
	l := newNewestList(d, maxDigestEntities)
	for i := len(d.Entities) - 1; i >= 0; i-- {
		txt, lazy := n.texts[i]
		if !lazy {
			if l.add(d.Entities[i]) {
				return l.kept
			}
			continue
		}
		if l.addNewestFirst(namesOf(txt)) {
			return l.kept
		}
	}
	for _, e := range prev {
		if l.add(e) {
			break
		}
	}
	return l.kept
}

// newestList builds, one entry at a time, what
// dedupe(withoutPaths(entries, the paths of d), max) returns for the
// entries given so far, so that a caller reading its sources newest first
// stops as soon as it is full.
type newestList struct {
	// isPath holds the pathKey of every path of d: the file index keeps
	// the paths, so they take no place among the capped entries.
	isPath map[string]bool
	seen   map[string]bool
	kept   []string
	max    int
}

func newNewestList(d Digest, max int) *newestList {
	l := &newestList{isPath: map[string]bool{}, seen: map[string]bool{}, kept: make([]string, 0, max), max: max}
	for _, ps := range d.paths() {
		for _, p := range ps {
			l.isPath[pathKey(p)] = true
		}
	}
	return l
}

// add adds e as dedupe would, unless a path of d has its key; it reports
// whether the list is full.
func (l *newestList) add(e string) bool {
	if len(l.kept) >= l.max {
		return true
	}
	if !l.isPath[pathKey(e)] {
		if e = cleanLine(Redact(msg.HeadBytes(e, 4*maxDigestItemBytes)), maxDigestItemBytes); e != "" && !l.seen[e] {
			l.seen[e] = true
			l.kept = append(l.kept, e)
		}
	}
	return len(l.kept) >= l.max
}

// addNewestFirst adds names, the names of one text in their order, the
// last first; it reports whether the list is full.
func (l *newestList) addNewestFirst(names []string) bool {
	for j := len(names) - 1; j >= 0; j-- {
		if l.add(names[j]) {
			return true
		}
	}
	return len(l.kept) >= l.max
}

func (n *digestBuilder) entity(e string) {
	if e = strings.TrimSpace(e); e != "" {
		n.d.Entities = append(n.d.Entities, e)
	}
}

// record adds what one tool result says.
func (n *digestBuilder) record(call Call, s ToolSummary, hasResult bool) {
	md := s.Metadata
	for _, f := range splitList(md[MetaFilesRead]) {
		n.entity(f)
	}
	for _, f := range splitList(md[MetaFilesModified]) {
		n.entity(f)
	}
	kind := md[MetaKind]
	failed := hasResult && s.Status == StatusError
	n.recordPaths(call, md, hasResult && !failed)
	if cmd := md[MetaCommand]; cmd != "" && (failed || (kind != KindRead && kind != KindWrite)) {
		c := shorten(firstLine(cmd), 120)
		switch {
		case !hasResult:
			c += " (no result)"
		case md[MetaExitCode] != "" && md[MetaExitCode] != "0":
			c += " (exit " + md[MetaExitCode] + ")"
		case failed:
			c += " (error)"
		case s.Status == StatusPartial:
			c += " (partial)"
		case md[MetaExitCode] == "0":
			c += " (ok)"
		}
		n.d.Commands = append(n.d.Commands, c)
	}
	for _, e := range splitList(md[MetaExceptions]) {
		n.d.Errors = append(n.d.Errors, n.withRef(e))
		name := e
		if i := strings.IndexAny(e, " :"); i > 0 {
			name = e[:i]
		}
		n.entity(name)
		n.d.Raised = append(n.d.Raised, name)
	}
	if ft := splitList(md[MetaFailedTests]); len(ft) > 0 {
		if len(ft) > 5 {
			ft = append(ft[:5], "+"+itoa(len(ft)-5)+" more")
		}
		n.d.Errors = append(n.d.Errors, n.withRef("Failed tests: "+strings.Join(ft, ", ")))
		n.entity(ft[0])
	}
	if e := md[MetaError]; e != "" && md[MetaExceptions] == "" && failed {
		n.d.Errors = append(n.d.Errors, n.withRef(e))
	}
	for _, e := range splitList(md[MetaLogErrors]) {
		n.d.Errors = append(n.d.Errors, n.withRef(e))
	}
	for _, e := range splitList(md[MetaDefines]) {
		n.entity(e)
	}
	if ids := splitList(md[MetaIdentifiers]); len(ids) > 0 && hasResult {
		n.d.Records = append(n.d.Records, recordItem(call.Name, ids, failed))
	}
}

// withRef returns error item e, shortened to leave room for the ref of the
// message read, followed by it: dedupe's cap does not cut the ref.
func (n *digestBuilder) withRef(e string) string {
	if n.ref == "" {
		return e
	}
	return shorten(cleanLine(e, 4*maxDigestItemBytes), maxDigestItemBytes-len(n.ref)) + n.ref
}

// recordItem is the Records item of one call: the tool and the identifiers
// it returned (at most maxRecordIDs), "(error)" when it failed.
func recordItem(tool string, ids []string, failed bool) string {
	more := ""
	if len(ids) > maxRecordIDs {
		more = ", +" + itoa(len(ids)-maxRecordIDs) + " more"
		ids = ids[:maxRecordIDs]
	}
	item := cleanLine(tool, 60) + ": " + strings.Join(ids, ", ") + more
	if failed {
		item += " (error)"
	}
	return item
}

// userText extracts instructions and questions from a user's text; task
// says txt is the conversation's first user message.
func (n *digestBuilder) userText(txt string, task bool) {
	for _, sent := range splitSentences(userPrefix(txt)) {
		if strings.HasSuffix(sent, "?") {
			n.d.Questions = append(n.d.Questions, sent)
			continue
		}
		if in, ok := instruction(sent); ok && task {
			n.task = append(n.task, in)
		} else if ok {
			n.d.Instructions = append(n.d.Instructions, in)
		}
	}
}

// userPrefix is the part of a user's text the digest reads: its first 64
// KiB.
func userPrefix(txt string) string {
	if len(txt) > 64<<10 {
		return txt[:64<<10]
	}
	return txt
}

// instruction returns sentence sent as the digest keeps an instruction or
// decision (shortened at a word to maxInstructionBytes) and whether it is
// one: not a question, and matching instructionRe.
func instruction(sent string) (string, bool) {
	if strings.HasSuffix(sent, "?") || !mayInstruct(sent) || !instructionRe.MatchString(sent) {
		return "", false
	}
	return shortenWords(sent, maxInstructionBytes), true
}

// Instructions returns the sentences of text that carry an instruction or
// a decision, as a [Digest] keeps them (one line each, shortened at a word
// to 160 bytes), in their order, deduplicated, at most max (max <= 0: no
// limit). Only the first 64 KiB of text are read. Safe for concurrent use.
func Instructions(text string, max int) []string {
	var out []string
	eachInstruction(text, func(s, _ string) bool {
		out = append(out, s)
		return max <= 0 || len(out) < max
	})
	return out
}

// InstructionsDirectivesFirst returns the instructions of text as
// [Instructions] does (no limit), the directives first: the sentences that
// tell the agent what to do or not to do ("must", "never", "please", "make
// sure", ...), then those that only record a decision or a plan ("let's",
// "we will", "instead of", "requirement"); each group in its order. A
// sentence is classed whole, before it is shortened. Where room is short,
// what the user asked comes first. Safe for concurrent use.
func InstructionsDirectivesFirst(text string) []string {
	var directives, decisions []string
	eachInstruction(text, func(s, whole string) bool {
		if directiveRe.MatchString(whole) {
			directives = append(directives, s)
		} else {
			decisions = append(decisions, s)
		}
		return true
	})
	return append(directives, decisions...)
}

// eachInstruction calls yield with every distinct instruction of the first
// 64 KiB of text, in order, as the digest keeps it (s) and as its whole
// sentence; it stops when yield returns false.
func eachInstruction(text string, yield func(s, whole string) bool) {
	seen := map[string]bool{}
	for _, sent := range splitSentences(userPrefix(text)) {
		if s, ok := instruction(sent); ok && !seen[s] {
			seen[s] = true
			if !yield(s, sent) {
				return
			}
		}
	}
}

// instructionStems holds, lower-cased, a part of every alternative of
// instructionRe: a sentence that contains none of them cannot match it.
var instructionStems = []string{"remember", "must", "never", "always", "don", "do not", "make sure", "ensure",
	"deci", "we will", "we'll", "we are going to", "let", "instead of", "prefer", "important", "requir",
	"should", "avoid", "only", "please", "need", "from now on", "keep in mind", "note that"}

// mayInstruct is a cheap filter before instructionRe (whose case-folding
// alternation is slow): false only when an ASCII sentence contains none of
// instructionStems. Non-ASCII sentences always pass (Unicode folding, e.g.
// 'ſ' for 's', is left to the regexp). Like [Redact]'s hints, it lower-cases
// once (no copy when there is no upper-case letter) and tests substrings.
func mayInstruct(sent string) bool {
	return !isASCII(sent) || containsAny(strings.ToLower(sent), instructionStems)
}

// splitSentences splits text into trimmed one-line sentences, keeping their
// final punctuation. A sentence ends at '.', '!' or '?' followed by
// white space or the end of the text, or at a run of newlines: the
// semantics of the regular expression `[.!?](?:\s+|$)|\n+`, by hand
// (the regexp was a tenth of a memory turn's cost; TestSplitSentencesRegexp
// checks the two agree).
func splitSentences(txt string) []string {
	var out []string
	emit := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	last := 0
	for i := 0; i < len(txt); {
		switch txt[i] {
		case '.', '!', '?':
			j := i + 1
			for j < len(txt) && reclass.Space(txt[j]) {
				j++
			}
			if j == i+1 && j < len(txt) {
				i++ // punctuation inside a word: "a.go", "1.5"
				continue
			}
			emit(txt[last : i+1])
			last, i = j, j
		case '\n':
			j := i + 1
			for j < len(txt) && txt[j] == '\n' {
				j++
			}
			emit(txt[last:i])
			last, i = j, j
		default:
			i++
		}
	}
	emit(txt[last:])
	return out
}

// splitList splits a "\n"-joined metadata list.
func splitList(s string) []string {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, "\n")
	out := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// finish reverses the new items to most recent first, appends prev's, and
// deduplicates, cleans and caps every list.
func (n *digestBuilder) finish(prev Digest) Digest {
	d := n.d
	merge := func(cur, old []string, max int) []string {
		all := make([]string, 0, len(cur)+len(old))
		for i := len(cur) - 1; i >= 0; i-- {
			all = append(all, cur[i])
		}
		all = append(all, old...)
		return dedupe(all, max)
	}
	lists, prevPaths := d.pathLists(), prev.paths()
	for g, l := range lists {
		*l = dedupePaths(merge(*l, prevPaths[g], maxIndexGroupItems))
	}
	d.FilesModified = withoutPaths(d.FilesModified, d.FilesCreated)
	d.FilesMentioned = dedupePaths(dedupe(mentionedPaths(d, prev), maxIndexGroupItems))
	d.Commands = failedFirst(merge(d.Commands, prev.Commands, maxDigestCommands))
	d.Records = merge(d.Records, prev.Records, maxDigestRecords)
	d.Errors = sameErrorOnce(merge(d.Errors, prev.Errors, 4*maxDigestErrors), maxDigestErrors)
	d.Raised = merge(d.Raised, prev.Raised, maxDigestRaised)
	// Standing orders first: the task's instructions (in their order), then
	// those of the previous digests, then the new ones, most recent first.
	instr := append(append([]string{}, n.task...), prev.Instructions...)
	for i := len(d.Instructions) - 1; i >= 0; i-- {
		instr = append(instr, d.Instructions[i])
	}
	d.Instructions = dedupe(samePrefixOnce(instr), maxDigestInstructions)
	d.Questions = samePrefixOnce(merge(d.Questions, prev.Questions, maxDigestQuestions))
	// The exceptions raised lead the entities: the names the agent wrote
	// (Names) are many, and a summary shorter than the list keeps its head.
	ents := n.recentEntities(d, prev.Entities)
	ents = append(ents, n.recentOutputNames(d)...)
	d.Entities = samePathOnce(foldCase(dedupe(append(append([]string{}, d.Raised...), ents...), maxDigestEntities)))
	d.Previous = Redact(strings.ToValidUTF8(strings.TrimSpace(shorten(prev.Previous, maxDigestPrevious)), "\uFFFD"))
	return d
}

// failedFirst moves the commands that failed (a non-zero exit, an error, no
// result) before the others, each group keeping its order (most recent
// first): when Render runs short of room, successes go first. It returns a
// new slice.
func failedFirst(cmds []string) []string {
	out := make([]string, 0, len(cmds))
	for pass := 0; pass < 2; pass++ {
		for _, c := range cmds {
			failed := strings.HasSuffix(c, ")") && (strings.Contains(c, " (exit ") || strings.HasSuffix(c, " (error)") || strings.HasSuffix(c, " (no result)"))
			if failed == (pass == 0) {
				out = append(out, c)
			}
		}
	}
	return out
}

// dedupe cleans (one line, redacted, capped), drops empties and repeats
// (first wins), and keeps at most max items. It returns a new slice.
func dedupe(in []string, max int) []string {
	seen := make(map[string]bool, len(in))
	out := make([]string, 0, min(len(in), max))
	for _, s := range in {
		if len(out) >= max {
			break
		}
		s = cleanLine(Redact(msg.HeadBytes(s, 4*maxDigestItemBytes)), maxDigestItemBytes)
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// sameErrorOnce drops an error equal, but for its ref, to an earlier one
// (the most recent stays, with its ref) and keeps at most max. It returns a
// new slice.
func sameErrorOnce(errs []string, max int) []string {
	seen := make(map[string]bool, len(errs))
	out := make([]string, 0, min(len(errs), max))
	for _, e := range errs {
		body, _ := cutRef(e)
		if !seen[body] && len(out) < max {
			seen[body] = true
			out = append(out, e)
		}
	}
	return out
}

// cutRef splits an item that ends with " ref:ID" into its body and that
// suffix; ref is "" when it has none.
func cutRef(item string) (body, ref string) {
	i := strings.LastIndex(item, " "+refid.Prefix)
	if i < 0 || strings.ContainsAny(item[i+1:], " \t") {
		return item, ""
	}
	return item[:i], item[i:]
}

// samePrefixBytes is how many leading bytes identify a sentence of the
// user: "Please always provide EXACTLY ONE action ..., found 2 actions." and
// "..., found 7 actions." are one instruction.
const samePrefixBytes = 60

// samePrefixOnce drops an item whose first samePrefixBytes bytes (white
// space collapsed) are those of an earlier one. It returns a new slice.
func samePrefixOnce(items []string) []string {
	seen := make(map[string]bool, len(items))
	out := make([]string, 0, len(items))
	for _, it := range items {
		k := msg.HeadBytes(strings.Join(strings.Fields(it), " "), samePrefixBytes)
		if !seen[k] {
			seen[k] = true
			out = append(out, it)
		}
	}
	return out
}

// samePathOnce drops a path when a kept (more recent) one names the same
// file relative to another directory: "/repo/src/a.py" after "src/a.py"
// and the reverse. It returns a new slice.
func samePathOnce(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		dup := false
		for _, q := range out {
			if underDir(p, q) || underDir(q, p) {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, p)
		}
	}
	return out
}

// underDir reports whether p ends with "/"+q, without building that
// string (samePathOnce compares every pair of a list).
func underDir(p, q string) bool {
	return len(p) > len(q) && p[len(p)-len(q)-1] == '/' && strings.HasSuffix(p, q)
}

// foldCase drops items equal, ignoring case, to an earlier one. It returns
// a new slice.
func foldCase(items []string) []string {
	seen := make(map[string]bool, len(items))
	out := make([]string, 0, len(items))
	for _, it := range items {
		k := strings.ToLower(it)
		if !seen[k] {
			seen[k] = true
			out = append(out, it)
		}
	}
	return out
}

// outputNames adds the names (Names) a tool output holds, in its first 64
// KiB, that have at least minOutputNameLetters letters: the functions,
// attributes and record ids the agent read, not its durations and times
// ("0.01s", "12:30:01"), nor the line numbers of a listing.
func (n *digestBuilder) outputNames(out string) { n.outputs = append(n.outputs, out) }

// outputNamesOf returns the names of one tool output (see outputNames), in
// the order they appear.
func outputNamesOf(out string) []string {
	var names []string
	for _, e := range Names(Redact(userPrefix(out))) {
		if e = withoutLineNumber(e); letters(e) >= minOutputNameLetters && isName(e) {
			names = append(names, e)
		}
	}
	return names
}

// recentOutputNames returns the names of the tool outputs read, the most
// recent first, that no path list of d holds, deduplicated, at most
// maxDigestSeen. It reads the outputs from the newest back and stops once
// it has them all: redacting and scanning every output of a long run for
// the 40 names of its last few was most of a cold compaction's time.
// (dedupe keeps first occurrences, so the names of older outputs could
// not change the result.)
func (n *digestBuilder) recentOutputNames(d Digest) []string {
	l := newNewestList(d, maxDigestSeen)
	for i := len(n.outputs) - 1; i >= 0; i-- {
		if l.addNewestFirst(outputNamesOf(n.outputs[i])) {
			break
		}
	}
	return l.kept
}

// withoutLineNumber returns name without the line number a listing puts
// before it ("18:ds.Rows" in "18:ds.Rows = 2" of a numbered file view, as
// grep -n writes it): "ds.Rows".
func withoutLineNumber(name string) string {
	i := 0
	for i < len(name) && name[i] >= '0' && name[i] <= '9' {
		i++
	}
	if i > 0 && i < len(name) && name[i] == ':' {
		return name[i+1:]
	}
	return name
}

// minOutputNameLetters is the fewest ASCII letters a name of a tool output
// holds to be kept.
const minOutputNameLetters = 3

// letters counts the ASCII letters of s.
func letters(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			n++
		}
	}
	return n
}
