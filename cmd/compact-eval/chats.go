package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/memory"
	"github.com/tmc/langchaingo/llms"
)

// chatGenericInput is the next input of the "generic" probe measure: a turn
// that asks about nothing in particular.
const chatGenericInput = "Let's keep chatting."

// conversationTemplate is the prompt of langchaingo v0.1.14's
// chains.NewConversation (unexported there); a chat chain sends it with the
// history and the input filled in.
const conversationTemplate = `The following is a friendly conversation between a human and an AI. The AI is talkative and provides lots of specific details from its context. If the AI does not know the answer to a question, it truthfully says it does not know.

Current conversation:
%s
Human: %s
AI:`

// chatConv is one conversation of the chats folder, as turns of a chat
// chain, with its probes.
type chatConv struct {
	name   string
	turns  []chatTurn
	probes []chatProbe
}

// chatTurn is one call of a conversation chain: the human input and the
// AI output (consecutive lines of one role joined by a newline; a leading
// assistant line is the output of an empty input).
type chatTurn struct{ in, out string }

// chatProbe is a question about the conversation with its short answer.
type chatProbe struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	Category string `json:"category"`
}

// loadChats reads every <name>.jsonl of dir with its <name>.probes.jsonl.
func loadChats(dir string) ([]chatConv, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.probes.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("chats: no *.probes.jsonl in %s", dir)
	}
	var out []chatConv
	for _, p := range names {
		base := strings.TrimSuffix(p, ".probes.jsonl")
		var lines []struct{ Role, Content string }
		if err := readJSONL(base+".jsonl", &lines); err != nil {
			return nil, err
		}
		c := chatConv{name: filepath.Base(base), turns: chatTurns(lines)}
		if err := readJSONL(p, &c.probes); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// joinChats joins every n consecutive conversations (in name order) into
// one: their turns one after the other, all their probes, named by the
// first with "+k" for the k others. A conversation ten times longer than
// the folder's, whose facts a question must find among many more turns,
// is what the folder's README holds out; joining is the nearest measure
// here. n <= 1 returns convs unchanged.
func joinChats(convs []chatConv, n int) []chatConv {
	if n <= 1 {
		return convs
	}
	out := make([]chatConv, 0, (len(convs)+n-1)/n)
	for i := 0; i < len(convs); i += n {
		group := convs[i:min(i+n, len(convs))]
		j := chatConv{name: fmt.Sprintf("%s+%d", group[0].name, len(group)-1)}
		for _, c := range group {
			j.turns = append(j.turns, c.turns...)
			j.probes = append(j.probes, c.probes...)
		}
		out = append(out, j)
	}
	return out
}

// readJSONL appends one decoded value per non-empty line of path to *dst.
func readJSONL[T any](path string, dst *[]T) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
		*dst = append(*dst, v)
	}
	return sc.Err()
}

// chatTurns groups the lines into chain turns.
func chatTurns(lines []struct{ Role, Content string }) []chatTurn {
	var out []chatTurn
	var in, reply []string
	flush := func() {
		if len(in)+len(reply) > 0 {
			out = append(out, chatTurn{in: strings.Join(in, "\n"), out: strings.Join(reply, "\n")})
		}
		in, reply = nil, nil
	}
	for _, l := range lines {
		if l.Role == "user" {
			if len(reply) > 0 {
				flush()
			}
			in = append(in, l.Content)
			continue
		}
		reply = append(reply, l.Content)
	}
	flush()
	return out
}

// chatScore counts one window's outcome over the conversations.
type chatScore struct {
	window, budget int
	probes         int
	oursGeneric    int // answers in our history for the generic input
	oursQuestion   int // ... for the probe's question as the input
	bufGeneric     int // ... in the token buffer's history, generic input
	bufQuestion    int // ... the token buffer, question input
	older          int // probes whose answer the token buffer (question input) does not hold
	olderKept      int // of those, answers in our history for the question
	olderGeneric   int // probes whose answer the token buffer (generic input) does not hold
	olderGenKept   int // of those, answers in our history for the generic input
	prompts        int
	promptTokens   int // sum of the prompts' tokens
	maxPrompt      int
	overWindow     int // prompts over window - reserved output
	orphans        int // histories showing a reply without its question
	retrieved      int // question loads whose history holds retrieved turns
}

// add sums o into s.
func (s *chatScore) add(o chatScore) {
	s.probes += o.probes
	s.oursGeneric += o.oursGeneric
	s.oursQuestion += o.oursQuestion
	s.bufGeneric += o.bufGeneric
	s.bufQuestion += o.bufQuestion
	s.older += o.older
	s.olderKept += o.olderKept
	s.olderGeneric += o.olderGeneric
	s.olderGenKept += o.olderGenKept
	s.prompts += o.prompts
	s.promptTokens += o.promptTokens
	s.maxPrompt = max(s.maxPrompt, o.maxPrompt)
	s.overWindow += o.overWindow
	s.orphans += o.orphans
	s.retrieved += o.retrieved
}

// chatReplay replays one conversation through a memory.Memory (messages
// mode, rendered as the string mode renders) at one window.
type chatReplay struct {
	counter *budget.TokenCounter
	mem     *memory.Memory
	window  int
	budget  int
	score   chatScore
	saved   []llms.ChatMessage // what SaveContext was given, in order
	// asked maps a reply's text to the texts of the inputs it answered.
	asked map[string]map[string]bool
}

// replayChat replays conv at window and checks its probes.
func replayChat(ctx context.Context, conv chatConv, window int, counter *budget.TokenCounter, opts ...memory.Option) (chatScore, error) {
	c, err := compact.New(compact.WithContextWindow(window), compact.WithCounter(counter))
	if err != nil {
		return chatScore{}, err
	}
	r := &chatReplay{counter: counter, window: window, budget: c.Budget(), asked: map[string]map[string]bool{}}
	v := chatVariantOf(ctx) // chatsvariant.go
	r.mem = memory.New(c, append(append([]memory.Option{memory.WithReturnMessages(true), memory.WithSessionID(conv.name)}, v.memoryOptions()...), opts...)...)
	defer r.mem.Close()
	r.score = chatScore{window: window, budget: r.budget}
	for i, t := range conv.turns {
		t.out = v.reply(i, t.out)
		if _, err := r.load(ctx, t.in); err != nil {
			return chatScore{}, fmt.Errorf("%s: load: %w", conv.name, err)
		}
		if err := r.mem.SaveContext(ctx, map[string]any{"input": t.in}, map[string]any{"output": t.out}); err != nil {
			return chatScore{}, fmt.Errorf("%s: save: %w", conv.name, err)
		}
		r.saved = append(r.saved, llms.HumanChatMessage{Content: t.in}, llms.AIChatMessage{Content: t.out})
		if r.asked[t.out] == nil {
			r.asked[t.out] = map[string]bool{}
		}
		r.asked[t.out][t.in] = true
	}
	generic, err := r.load(ctx, chatGenericInput)
	if err != nil {
		return chatScore{}, fmt.Errorf("%s: load: %w", conv.name, err)
	}
	bufGeneric := r.tokenBuffer(chatGenericInput)
	for _, p := range conv.probes {
		if err := r.probe(ctx, p, generic, bufGeneric); err != nil {
			return chatScore{}, fmt.Errorf("%s: probe %q: %w", conv.name, p.Question, err)
		}
	}
	return r.score, nil
}

// probe checks one probe against our histories and the token buffer's.
func (r *chatReplay) probe(ctx context.Context, p chatProbe, generic, bufGeneric string) error {
	hist, err := r.load(ctx, p.Question)
	if err != nil {
		return err
	}
	if strings.Contains(hist, memory.RetrievedPreamble) {
		r.score.retrieved++
	}
	r.score.probes++
	ans := normalizeText(p.Answer)
	has := func(s string) bool { return strings.Contains(normalizeText(s), ans) }
	g := has(generic)
	r.score.oursGeneric += b2i(g)
	if has(bufGeneric) {
		r.score.bufGeneric++
	} else {
		r.score.olderGeneric++
		r.score.olderGenKept += b2i(g)
	}
	q := has(hist)
	r.score.oursQuestion += b2i(q)
	if has(r.tokenBuffer(p.Question)) {
		r.score.bufQuestion++
	} else {
		r.score.older++
		r.score.olderKept += b2i(q)
	}
	return nil
}

// load calls LoadMemoryVariables with input as a conversation chain does,
// records the prompt's size and whether it shows a reply without its
// question, and returns the history as the string mode renders it.
func (r *chatReplay) load(ctx context.Context, input string) (string, error) {
	vars, err := r.mem.LoadMemoryVariables(ctx, map[string]any{"input": input})
	if err != nil {
		return "", err
	}
	msgs, _ := vars[memory.DefaultMemoryKey].([]llms.ChatMessage)
	hist, err := renderHistory(msgs)
	if err != nil {
		return "", err
	}
	tok := r.counter.Count(fmt.Sprintf(conversationTemplate, hist, input))
	r.score.prompts++
	r.score.promptTokens += tok
	r.score.maxPrompt = max(r.score.maxPrompt, tok)
	r.score.overWindow += b2i(tok > r.budget)
	r.score.orphans += b2i(orphanReply(msgs, r.asked))
	return hist, nil
}

// tokenBuffer is what langchaingo's ConversationTokenBuffer keeps of the
// saved turns with the same room as the memory: the oldest messages are
// dropped, one at a time, until the buffer string fits the budget less the
// prompt (template and input) around it. langchaingo counts with
// llms.CountTokens; this counts with the memory's tokenizer. It grows the
// kept suffix from the newest message instead of shrinking the whole
// history from the oldest (the same result: the buffer string's tokens
// grow with every message added), so its cost is the buffer's, not the
// conversation's.
func (r *chatReplay) tokenBuffer(input string) string {
	room := r.budget - r.counter.Count(fmt.Sprintf(conversationTemplate, "", input))
	kept := ""
	for start := len(r.saved) - 1; start >= 0; start-- {
		s, _ := llms.GetBufferString(r.saved[start:], memory.DefaultHumanPrefix, memory.DefaultAIPrefix)
		if r.counter.Count(s) > room {
			break
		}
		kept = s
	}
	return kept
}

// renderHistory renders msgs as the Memory's string mode does: "Prefix:
// content" lines, the summary and the retrieved turns as their content.
func renderHistory(msgs []llms.ChatMessage) (string, error) {
	lines := make([]string, 0, len(msgs))
	for _, m := range msgs {
		if isMemoryNote(m) {
			lines = append(lines, m.GetContent())
			continue
		}
		s, err := llms.GetBufferString([]llms.ChatMessage{m}, memory.DefaultHumanPrefix, memory.DefaultAIPrefix)
		if err != nil {
			return "", err
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n"), nil
}

// isMemoryNote reports whether m is a message the memory adds (the summary
// or the retrieved earlier turns), not one of the conversation's.
func isMemoryNote(m llms.ChatMessage) bool {
	if m.GetType() != llms.ChatMessageTypeHuman {
		return false
	}
	c := m.GetContent()
	return strings.HasPrefix(c, compact.SummaryPreamble) || strings.HasPrefix(c, memory.RetrievedPreamble)
}

// orphanReply reports whether msgs shows an AI reply that does not follow
// the input it answered (asked maps a reply's text to those inputs): after
// the summary, a retrieved block, another reply or another question, the
// reply reads as the answer to something else.
func orphanReply(msgs []llms.ChatMessage, asked map[string]map[string]bool) bool {
	for i, m := range msgs {
		if m.GetType() != llms.ChatMessageTypeAI {
			continue
		}
		if i == 0 || msgs[i-1].GetType() != llms.ChatMessageTypeHuman || !asked[m.GetContent()][msgs[i-1].GetContent()] {
			return true
		}
	}
	return false
}

// normalizeText lowercases s and collapses its white space.
func normalizeText(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}
