package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/summary"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

// Credentials in the forms of issue 24, item 4 (and their families), as
// an agent meets them: planted in commands and tool outputs.
var (
	fakeDBPassLower = "Kangar00Db" + "Pass4wordX"
	fakeMySQLPass   = "MyS3cretSql" + "Pw9Alpha"
	fakeCurlPass    = "W0nderland" + "Curl77Pass"
	fakeBasicAuth   = "YWxpY2U6V29uZGVy" + "bGFuZENhdDQyeA=="
	fakeXAPIKey     = "9f8e7d6c5b4a3928" + "1706f5e4d3c2b1a0"
	fakeProsePass   = "UsrDbPw-Kangaroo" + "42Zebra"
)

// credentialForms are the forms Redact covers since issue 24: a value
// planted each way must never survive in anything compaction derives.
func credentialForms() []seededSecret {
	return []seededSecret{
		{"lower-case key (db_password=)", fakeDBPassLower, "db_password=" + fakeDBPassLower},
		{"mysql -pPASS", fakeMySQLPass, "mysql -uroot -p" + fakeMySQLPass + " prod < dump.sql"},
		{"curl -u user:pass", fakeCurlPass, "curl -s -u deploy:" + fakeCurlPass + " https://api.example.com/v1/me"},
		{"Authorization: Basic", fakeBasicAuth, "> Authorization: Basic " + fakeBasicAuth},
		{"x-api-key header", fakeXAPIKey, "> x-api-key: " + fakeXAPIKey},
		{"prose", fakeProsePass, "The DB password is " + fakeProsePass + " for now."},
	}
}

// TestSummariesNeverKeepCredentials runs a conversation whose tool
// outputs hold credentials in every form through the middleware, with the
// wrapped model as its own (cache-safe) summarizer, a model that repeats
// in its summary, bare, every credential it was shown (issue 24, item 2).
// No summary message the agent is later sent, no summary record, holds
// one.
func TestSummariesNeverKeepCredentials(t *testing.T) {
	forms := append(credentialForms(), secretCorpus()...)
	var mu sync.Mutex
	var sent [][]llms.MessageContent
	model := funcModel(func(ctx context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
		if summary.IsSummarizerCall(ctx) {
			var seen strings.Builder
			for _, m := range msgs {
				for _, p := range m.Parts {
					b, _ := json.Marshal(p)
					seen.Write(b)
				}
			}
			var echo []string
			for _, f := range forms {
				if strings.Contains(seen.String(), f.value) {
					echo = append(echo, f.value)
				}
			}
			return reply(summaryJSON("Deployment work. Credentials seen: "+strings.Join(echo, " ; "), echo...)), nil
		}
		mu.Lock()
		sent = append(sent, msgs)
		mu.Unlock()
		return reply("ok"), nil
	})
	modes := map[string]int{}
	c, err := compact.New(compact.WithContextWindow(6_000), compact.WithReservedOutput(1_000), compact.WithSummarizer(model),
		onEvent(func(e compact.Event) { modes[e.Mode]++ }))
	require.NoError(t, err)
	st := store.NewMemory()
	llm := middleware.Wrap(model, c, middleware.WithStore(st))
	ctx := middleware.WithSession(context.Background(), "creds")
	conv := []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "You are a deployment agent."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Deploy the app. "+credentialForms()[5].text),
	}
	for i, f := range forms {
		id := fmt.Sprintf("call_%d", i)
		conv = append(conv,
			llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.ToolCall{ID: id, Type: "function",
				FunctionCall: &llms.FunctionCall{Name: "bash", Arguments: fmt.Sprintf(`{"command":"step %d"}`, i)}}}},
			llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: id, Name: "bash",
				Content: f.text + "\n" + strings.Repeat(fmt.Sprintf("log line %d of step %d, nothing secret here\n", i, i), 40)}}},
		)
		_, err := llm.GenerateContent(ctx, conv)
		require.NoError(t, err)
	}
	state, err := st.Load(context.Background(), "creds")
	require.NoError(t, err)
	require.NotEmpty(t, state.Chain, "the conversation was compacted with a summary")
	b, _ := json.Marshal(state)
	for _, f := range forms {
		require.NotContains(t, string(b), f.value, "stored summary chain keeps %s", f.kind)
	}
	require.NotZero(t, modes[compact.ModeLLM], "the model's summaries were used: %v", modes)
	for _, msgs := range sent {
		for _, m := range msgs {
			for _, p := range m.Parts {
				if tc, ok := p.(llms.TextContent); ok && strings.HasPrefix(tc.Text, compact.SummaryPreamble) {
					for _, f := range forms {
						require.NotContains(t, tc.Text, f.value, "summary message sent keeps %s", f.kind)
					}
				}
			}
		}
	}
}

// TestSummarizerIgnoringItsContextStallsNoCall checks issue 24, item 5
// across the middleware and the engine: a summarizer that ignores its
// context holds neither the caller past its deadline nor a later call of
// the same conversation that needs no summary, and with the engine's
// summarizer deadline the compaction falls back to the rule digest.
func TestSummarizerIgnoringItsContextStallsNoCall(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	hang := compact.SummarizerFunc(func(ctx context.Context, req compact.SummarizeRequest) (compact.SummaryRecord, error) {
		<-release // ignores ctx
		return compact.SummaryRecord{Summary: "late"}, nil
	})
	agent := funcModel(func(ctx context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
		return reply("ok"), nil
	})
	var mu sync.Mutex
	var modes []string
	c, err := compact.New(compact.WithContextWindow(4_000), compact.WithReservedOutput(500),
		compact.WithCustomSummarizer(hang), compact.WithSummarizerTimeout(200*time.Millisecond),
		onEvent(func(e compact.Event) { mu.Lock(); modes = append(modes, e.Mode); mu.Unlock() }))
	require.NoError(t, err)
	llm := middleware.Wrap(agent, c)
	long := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "s")}
	for i := 0; i < 40; i++ {
		long = append(long, llms.TextParts(llms.ChatMessageTypeHuman, fmt.Sprintf("question %d: %s", i, strings.Repeat("words ", 40))),
			llms.TextParts(llms.ChatMessageTypeAI, fmt.Sprintf("answer %d: %s", i, strings.Repeat("more words ", 40))))
	}
	long = append(long, llms.TextParts(llms.ChatMessageTypeHuman, "next"))
	short := []llms.MessageContent{long[0], llms.TextParts(llms.ChatMessageTypeHuman, "hello")}

	call := func(sess string, d time.Duration, msgs []llms.MessageContent) <-chan error {
		done := make(chan error, 1)
		go func() {
			ctx, cancel := context.WithTimeout(middleware.WithSession(context.Background(), sess), d)
			defer cancel()
			_, err := llm.GenerateContent(ctx, msgs)
			done <- err
		}()
		return done
	}
	wait := func(name string, done <-chan error) error {
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatalf("%s still blocked 30 s later", name)
			return nil
		}
	}
	first := call("s", 10*time.Second, long)
	time.Sleep(50 * time.Millisecond)
	second := call("s", 10*time.Second, short)
	require.NoError(t, wait("the compacting call (engine deadline 200 ms)", first))
	require.NoError(t, wait("a later call of the same conversation", second))
	mu.Lock()
	require.Equal(t, []string{compact.ModeFallback}, modes, "the rule digest stood in")
	mu.Unlock()

	// A caller deadline shorter than the engine's: the call returns by then.
	c2, err := compact.New(compact.WithContextWindow(4_000), compact.WithReservedOutput(500),
		compact.WithCustomSummarizer(hang), compact.WithSummarizerTimeout(time.Hour))
	require.NoError(t, err)
	llm = middleware.Wrap(agent, c2)
	require.Error(t, wait("a caller with a 200 ms deadline", call("t", 200*time.Millisecond, long)))
}
