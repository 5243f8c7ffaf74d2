package compact

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// chatDigestHeader begins a rule summary of plain conversation turns; it
// keeps the "Summary of N earlier messages" form previousDigest parses.
const chatDigestHeader = "Summary of %d earlier messages: what was said, most recent and most repeated first."

// maxFactWords caps the words of one fact line.
const maxFactWords = 40

// A reply of the AI longer than longReplyWords words or longReplySentences
// sentences is long: of it the digest keeps what it decided or promised
// (hasPlan) only. A model asked for "lots of specific details" fills its
// replies with numbers that would otherwise crowd out what the user said.
const (
	longReplyWords     = 60
	longReplySentences = 3
)

// nearDuplicate is the least share of words two fact lines have in common
// (Jaccard, digits left out) for the later-ranked one to be left out: a
// talkative model repeats one template with other numbers.
const nearDuplicate = 0.7

// The groups of fact lines, in the digest's order: what the user stated
// comes first, then what the AI said that is worth keeping, then the
// user's questions.
const (
	groupUser = iota
	groupAI
	groupQuestion
)

var (
	factID = regexp.MustCompile(`\b[\p{L}]*\d[\p{L}\d]*[-_./@][\p{L}\d-_./@]+\b|\b[\w.+-]+@[\w-]+\.[\w.]+\b`)
)

// chatChain reports whether a conversation digest may fold prev in: there
// is none, or it is a conversation digest itself. A tool digest (an agent
// run whose latest dropped turns happen to hold no tool call) is folded by
// the tool digest, which carries its file index and records whole.
func chatChain(prev *SummaryRecord) bool {
	if prev == nil {
		return true
	}
	var n int
	_, err := fmt.Sscanf(prev.Summary, chatDigestHeader, &n)
	return err == nil
}

// plainTurns reports whether msgs are conversation turns only: human and
// AI messages without tool calls, no tool messages.
func plainTurns(msgs []llms.MessageContent) bool {
	for _, m := range msgs {
		switch {
		case m.Role == llms.ChatMessageTypeTool, msg.HasToolCall(m):
			return false
		case m.Role != llms.ChatMessageTypeHuman && m.Role != llms.ChatMessageTypeAI && m.Role != llms.ChatMessageTypeGeneric:
			return false
		}
	}
	return len(msgs) > 0
}

// fact is one sentence of a conversation worth keeping.
type fact struct {
	line     string // "User: ..." or "AI: ..."
	at       int    // message index (recency)
	signals  int
	repeat   int // occurrences of its most repeated key term
	question bool
	plan     bool
	ai       bool // said by the AI: ranked after what the user said
}

// group returns the fact's group (groupUser, groupAI, groupQuestion).
func (f fact) group() int {
	switch {
	case f.question:
		return groupQuestion
	case f.ai:
		return groupAI
	}
	return groupUser
}

// lineGroup returns the group of a rendered fact line (of a previous
// digest): by its "User: ", "AI: " or "User asked: " prefix.
func lineGroup(l string) int {
	switch {
	case strings.HasPrefix(l, "AI: "):
		return groupAI
	case strings.Contains(l, " asked: "):
		return groupQuestion
	}
	return groupUser
}

// conversationDigest is the rule summary of plain conversation turns: the
// sentences that state facts (names, places, dates and times, numbers,
// identifiers, preferences, decisions and plans, questions), each
// attributed to who said it, within req.MaxTokens: what the user stated
// first, then what the AI said (of a long reply, only what it decided or
// promised), then the user's questions; in each group most recent and most
// repeated first, the previous summary's lines after the new ones, and a
// line that nearly repeats one kept (the same words but for numbers) left
// out. ok is false when req.Messages are not plain turns (the tool digest
// serves).
func conversationDigest(req SummarizeRequest) (SummaryRecord, bool) {
	if !plainTurns(req.Messages) || !chatChain(req.Previous) {
		return SummaryRecord{}, false
	}
	count := req.Count
	if count == nil {
		count = func(s string) int { return len(s)/3 + 1 }
	}
	facts := collectFacts(req.Messages)
	rankFacts(facts)
	total := len(req.Messages)
	var older []string
	if p := req.Previous; p != nil {
		var n int
		if _, err := fmt.Sscanf(p.Summary, "Summary of %d earlier messages", &n); err == nil {
			total += n
		} else {
			total += len(p.OriginalMessageIDs)
		}
		older = previousFacts(p)
	}
	lines := make([]string, 0, len(facts)+len(older))
	for _, f := range facts {
		lines = append(lines, f.line)
	}
	lines = append(lines, older...)
	rankBySpecificity(lines) // chatspecific.go
	text, kept := renderFacts(fmt.Sprintf(chatDigestHeader, total), lines, req.MaxTokens, count)
	rec := SummaryRecord{Summary: text, KeyPoints: capList(kept, maxContextItems), Mode: ModeRule,
		Context: SummaryContext{Participants: participants(req.Messages), ActionItems: []ActionItem{}}}
	var plans, questions []string
	for _, f := range facts {
		switch {
		case f.question:
			questions = append(questions, f.line)
		case f.plan:
			plans = append(plans, f.line)
		}
	}
	rec.Context.Decisions = capList(plans, maxContextItems)
	rec.Context.Unresolved = capList(questions, maxContextItems)
	rec.Context.DomainEntities = capList(keyTerms(req.Messages), maxContextItems)
	return rec, true
}

// collectFacts returns the fact sentences of msgs, attributed. The key
// terms (factKeys) of each sentence are found once: counted over every
// message (a fact's repeat), then read for the fact sentences. A message's
// key terms are its sentences' (a key term holds no white space, so none
// crosses a sentence end, and the characters around a sentence are not
// word characters, as the ends of a string are not).
func collectFacts(msgs []llms.MessageContent) []fact {
	keys := map[string]int{}
	sentences := make([][]string, len(msgs))
	terms := make([][][]string, len(msgs))
	for i, m := range msgs {
		sentences[i] = splitSentences(msg.Text(m))
		terms[i] = make([][]string, len(sentences[i]))
		for j, st := range sentences[i] {
			terms[i][j] = factKeys(st)
			for _, k := range terms[i][j] {
				keys[strings.ToLower(k)]++
			}
		}
	}
	var out []fact
	seen := map[string]bool{}
	for i, m := range msgs {
		who := "User"
		long := false
		if m.Role == llms.ChatMessageTypeAI {
			who = "AI"
			long = len(sentences[i]) > longReplySentences || countFields(msg.Text(m), longReplyWords+1) > longReplyWords
		}
		for j, st := range sentences[i] {
			if f, ok := sentenceFact(st, who, i, keys, terms[i][j]); ok && !seen[f.line] && (!long || f.plan) {
				seen[f.line] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// sentenceFact scores one sentence, whose key terms (factKeys) are terms;
// ok is false when it states nothing to keep (fewer than three words; an
// AI sentence needs a number, time or identifier: replies are mostly talk
// around the user's facts).
func sentenceFact(s, who string, at int, keys map[string]int, terms []string) (fact, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return fact{}, false
	}
	if countFields(s, 3) < 3 {
		return fact{}, false // "Wow, Isabella": talk, not a fact
	}
	ws := sentenceWords(s) // chatwords.go
	digit := strings.ContainsAny(s, "0123456789")
	// factID runs only where it can match (idCandidate, chatscan.go).
	literals := b2n(digit) + b2n(hasTime(s, ws)) + b2n(idCandidate(s) && factID.MatchString(s))
	hard := literals + b2n(hasCapitalName(s)) // a name that does not begin the sentence (chatscan.go)
	soft := 0
	plan := hasPlan(s, ws)
	if plan {
		soft++
	}
	if hasPref(ws) {
		soft++
	}
	question := strings.HasSuffix(s, "?")
	if hard+soft == 0 || who == "AI" && literals == 0 || question && who == "AI" {
		return fact{}, false
	}
	f := fact{at: at, signals: hard + soft, plan: plan, question: question, ai: who == "AI"}
	for _, k := range terms {
		f.repeat = max(f.repeat, keys[strings.ToLower(k)])
	}
	words := strings.Fields(s)
	if len(words) > maxFactWords {
		words = append(words[:maxFactWords:maxFactWords], "…")
	}
	f.line = who + ": " + strings.Join(words, " ")
	if question {
		f.line = who + " asked: " + strings.Join(words, " ")
	}
	return f, true
}

// rankFacts orders facts by group (the user's statements, the AI's, the
// user's questions), and in a group most recent and most repeated first: a
// fact's rank is its recency (0 to 1) plus a bonus for key terms said again
// (names, numbers) and for stating more kinds of facts.
func rankFacts(facts []fact) {
	last := 1
	for _, f := range facts {
		last = max(last, f.at)
	}
	score := func(f fact) float64 {
		return float64(f.at)/float64(last) + 0.3*float64(min(f.repeat-1, 3)) + 0.1*float64(f.signals)
	}
	sort.SliceStable(facts, func(i, j int) bool {
		if gi, gj := facts[i].group(), facts[j].group(); gi != gj {
			return gi < gj
		}
		return score(facts[i]) > score(facts[j])
	})
}

// previousFacts returns the fact lines of a previous summary: its lines of
// a conversation digest, or its key points.
func previousFacts(p *SummaryRecord) []string {
	if strings.HasPrefix(p.Summary, "Summary of ") && strings.Contains(p.Summary, "what was said") {
		var out []string
		for _, l := range strings.Split(p.Summary, "\n")[1:] {
			if l = strings.TrimPrefix(strings.TrimSpace(l), "- "); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	if len(p.KeyPoints) > 0 {
		return p.KeyPoints
	}
	if p.Summary != "" {
		return []string{p.Summary}
	}
	return nil
}

// renderFacts renders the header and as many lines as fit maxTokens (0 or
// less: DefaultMaxSummaryTokens), without duplicates or near-duplicates of
// a line kept before (nearDuplicate); it returns the text and the lines
// kept. Its cost is the lines' times the lines kept, which the cap bounds.
func renderFacts(header string, lines []string, maxTokens int, count func(string) int) (string, []string) {
	if maxTokens <= 0 {
		maxTokens = DefaultMaxSummaryTokens
	}
	var b strings.Builder
	b.WriteString(header)
	used := count(header)
	var kept []string
	var keptWords []map[string]bool
	seen := map[string]bool{}
	for _, l := range lines {
		if seen[l] {
			continue
		}
		seen[l] = true
		c := count("\n- "+l) + 1
		if used+c > maxTokens {
			continue // a shorter fact further down may still fit
		}
		words := wordSet(l)
		if nearlyKept(words, keptWords) {
			continue
		}
		keptWords = append(keptWords, words)
		used += c
		b.WriteString("\n- ")
		b.WriteString(l)
		kept = append(kept, l)
	}
	return b.String(), kept
}

// keyTerms returns the capitalized words and numbers of msgs said at least
// twice, most frequent first.
func keyTerms(msgs []llms.MessageContent) []string {
	n := map[string]int{}
	var order []string
	for _, m := range msgs {
		capitalNames(msg.Text(m), func(k string) bool { // chatscan.go
			if n[k] == 0 {
				order = append(order, k)
			}
			n[k]++
			return true
		})
	}
	out := order[:0:0]
	for _, k := range order {
		if n[k] >= 2 {
			out = append(out, k)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return n[out[i]] > n[out[j]] })
	return out
}

// wordSet returns the lower-cased words of a fact line without digits
// ("reply 38" and "reply 39" share theirs).
func wordSet(l string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(l), func(r rune) bool {
		return !unicode.IsLetter(r)
	}) {
		out[w] = true
	}
	return out
}

// nearlyKept reports whether words share at least nearDuplicate of their
// union (Jaccard) with the words of a line kept. A kept line whose size is
// below nearDuplicate of the other's cannot (what two sets share is at
// most the smaller, their union at least the larger): it is skipped
// unread, and the smaller set is the one read.
func nearlyKept(words map[string]bool, kept []map[string]bool) bool {
	for _, k := range kept {
		small, large := words, k
		if len(small) > len(large) {
			small, large = large, small
		}
		if float64(len(small)) < nearDuplicate*float64(len(large)) {
			continue
		}
		common := 0
		for w := range small {
			if large[w] {
				common++
			}
		}
		if union := len(words) + len(k) - common; union > 0 && float64(common) >= nearDuplicate*float64(union) {
			return true
		}
	}
	return false
}
