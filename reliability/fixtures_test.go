package reliability

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/agentcompact/compact/prompts"
	"github.com/tmc/langchaingo/llms"
)

// trajectoryDir holds the real agent trajectories copied into the
// repository (see testdata/LICENSES.md at the module root).
const trajectoryDir = "../testdata/trajectories"

// loadTrajectories reads every trajectory of trajectoryDir, by file name
// without extension, in name order.
func loadTrajectories(t testing.TB) (names []string, convs map[string][]llms.MessageContent) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(trajectoryDir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no trajectories in %s: %v", trajectoryDir, err)
	}
	sort.Strings(files)
	convs = map[string][]llms.MessageContent{}
	for _, f := range files {
		msgs, err := trajectory.ReadFile(f)
		if err != nil {
			t.Fatalf("read %s: %v", f, err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		names = append(names, name)
		convs[name] = msgs
	}
	return names, convs
}

// toolSample is one real tool call and its output.
type toolSample struct {
	name, args, output string
}

// toolSamples returns every tool call of the trajectories with its output.
func toolSamples(convs map[string][]llms.MessageContent, names []string) []toolSample {
	var out []toolSample
	for _, n := range names {
		calls := map[string]llms.ToolCall{}
		for _, m := range convs[n] {
			for _, p := range m.Parts {
				switch p := p.(type) {
				case llms.ToolCall:
					calls[p.ID] = p
				case llms.ToolCallResponse:
					c, ok := calls[p.ToolCallID]
					if !ok || c.FunctionCall == nil {
						continue
					}
					out = append(out, toolSample{name: c.FunctionCall.Name, args: c.FunctionCall.Arguments, output: p.Content})
				}
			}
		}
	}
	return out
}

// userTexts returns the text of every user message of the trajectories
// (the task statements and the environment's replies of text agents).
func userTexts(convs map[string][]llms.MessageContent, names []string) []string {
	var out []string
	for _, n := range names {
		for _, m := range convs[n] {
			if m.Role == llms.ChatMessageTypeHuman {
				out = append(out, textOf(m))
			}
		}
	}
	return out
}

// envInt reads a positive integer from the environment, or def.
func envInt(name string, def int) int {
	var n int
	if _, err := fmt.Sscan(os.Getenv(name), &n); err == nil && n > 0 {
		return n
	}
	return def
}

// funcModel is an llms.Model made of a function.
type funcModel func(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error)

func (f funcModel) GenerateContent(ctx context.Context, msgs []llms.MessageContent, opts ...llms.CallOption) (*llms.ContentResponse, error) {
	return f(ctx, msgs, opts...)
}

func (f funcModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, f, prompt, opts...)
}

// reply is a ContentResponse with one choice.
func reply(text string) *llms.ContentResponse {
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: text}}}
}

// summaryJSON is a valid summarizer reply whose narrative is text.
func summaryJSON(text string, keyPoints ...string) string {
	return prompts.MarshalSummary(prompts.Summary{Summary: text, KeyPoints: keyPoints})
}

// userPrompt returns the text of the user message a summarizer sends: the
// transcript.
func userPrompt(msgs []llms.MessageContent) string {
	var b strings.Builder
	for _, m := range msgs {
		if m.Role == llms.ChatMessageTypeHuman {
			b.WriteString(textOf(m))
		}
	}
	return b.String()
}

// fault is a summarizer-model fault the soak injects.
type fault int

const (
	faultNone      fault = iota // a valid summary
	faultError                  // a retryable transport error (HTTP 503)
	faultFatal                  // a non-retryable error (HTTP 400)
	faultHang                   // no reply until the attempt's deadline
	faultGarbage                // prose, not the JSON schema
	faultOversized              // a valid summary far over the token cap
	faultHuge                   // a 2 MB reply
	faultPanic                  // the model panics
	faultNil                    // nil response, nil error
	faultNoChoice               // a response without choices
	faultCancel                 // the caller's context is canceled mid-call
	numFaults
)

var faultNames = [numFaults]string{"none", "error-503", "error-400", "hang", "garbage", "oversized", "huge-2MB", "panic", "nil-response", "no-choice", "caller-cancel"}

func (f fault) String() string { return faultNames[f] }

// httpError is a provider error carrying an HTTP status.
type httpError int

func (e httpError) Error() string {
	return fmt.Sprintf("API returned unexpected status code: %d", int(e))
}
func (e httpError) StatusCode() int { return int(e) }

// cancelKey carries the cancel function of a caller's context, so that the
// faulty model can cancel its caller in the middle of a call.
type cancelKey struct{}

// faultyModel is a summarizer model that fails at random: each call draws a
// fault with probability rate (uniformly among the faults), else replies
// with a valid summary. It counts what it injected. Safe for concurrent use.
type faultyModel struct {
	rate     float64
	mu       sync.Mutex
	r        *rand.Rand
	injected [numFaults]atomic.Int64
	huge     string
}

func newFaultyModel(seed int64, rate float64) *faultyModel {
	return &faultyModel{rate: rate, r: rand.New(rand.NewSource(seed)), huge: strings.Repeat("garbage ", 2<<20/8)}
}

func (m *faultyModel) draw(ctx context.Context) fault {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.r.Float64() >= m.rate {
		return faultNone
	}
	f := fault(1 + m.r.Intn(int(numFaults)-1))
	if f == faultCancel && ctx.Value(cancelKey{}) == nil {
		f = faultError
	}
	return f
}

func (m *faultyModel) GenerateContent(ctx context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	f := m.draw(ctx)
	m.injected[f].Add(1)
	switch f {
	case faultError:
		return nil, httpError(503)
	case faultFatal:
		return nil, httpError(400)
	case faultHang:
		<-ctx.Done()
		return nil, fmt.Errorf("request timeout: %w", ctx.Err())
	case faultGarbage:
		return reply("Sure! Here is a summary of the conversation: the user fixed a bug."), nil
	case faultOversized:
		return reply(summaryJSON(strings.Repeat("The agent ran the tests again and read more files. ", 250))), nil
	case faultHuge:
		return reply(m.huge), nil
	case faultPanic:
		panic("summarizer model exploded")
	case faultNil:
		return nil, nil
	case faultNoChoice:
		return &llms.ContentResponse{}, nil
	case faultCancel:
		if cancel, ok := ctx.Value(cancelKey{}).(context.CancelFunc); ok {
			cancel()
		}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	n := len(userPrompt(msgs))
	return reply(summaryJSON(fmt.Sprintf("The agent worked on the task; the transcript had %d characters.", n), "tests were run")), nil
}

func (m *faultyModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

// counts returns the injected faults by name (faults only, not the valid replies).
func (m *faultyModel) counts() map[string]int64 {
	out := map[string]int64{}
	for f := fault(1); f < numFaults; f++ {
		out[f.String()] = m.injected[f].Load()
	}
	return out
}

// total returns the number of faults injected.
func (m *faultyModel) total() int64 {
	var n int64
	for f := fault(1); f < numFaults; f++ {
		n += m.injected[f].Load()
	}
	return n
}

// recordingModel records the messages of every call and replies with fn's
// text. Safe for concurrent use.
type recordingModel struct {
	mu    sync.Mutex
	calls [][]llms.MessageContent
	fn    func(msgs []llms.MessageContent) string
}

func (m *recordingModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	m.mu.Lock()
	m.calls = append(m.calls, cloneMessages(msgs))
	m.mu.Unlock()
	return reply(m.fn(msgs)), nil
}

func (m *recordingModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}

func (m *recordingModel) recorded() [][]llms.MessageContent {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([][]llms.MessageContent(nil), m.calls...)
}

// echoSummary is the reply of a parroting summarizer model: a valid summary
// whose narrative and key points repeat the start of the transcript it was
// sent, the worst a model can do with its input.
func echoSummary(msgs []llms.MessageContent) string {
	t := userPrompt(msgs)
	if len(t) > 3000 {
		t = t[len(t)-3000:]
	}
	t = strings.ToValidUTF8(t, "?")
	lines := strings.Split(t, "\n")
	var kp []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && len(kp) < 10 {
			if len(l) > 300 {
				l = l[:300]
			}
			kp = append(kp, strings.ToValidUTF8(l, "?"))
		}
	}
	return summaryJSON("Echo of the transcript: "+t, kp...)
}

// errNotJSON is returned by decodeJSON for a body that does not parse.
var errNotJSON = errors.New("not JSON")

// jsonStrings returns every string value inside a JSON document, decoded.
func jsonStrings(body []byte) ([]string, error) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("%w: %v", errNotJSON, err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for k, e := range v {
				out = append(out, k)
				walk(e)
			}
		}
	}
	walk(v)
	return out, nil
}

// onEvent is the engine's observer option for a test that reads only the
// event: compact.WithEventHandler with the call's context left out.
func onEvent(f func(compact.Event)) compact.Option {
	return compact.WithEventHandler(compact.EventHandlerFunc(func(_ context.Context, e compact.Event) { f(e) }))
}
