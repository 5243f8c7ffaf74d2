package llmsummary_test

import (
	"context"
	"errors"
	"flag"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/agentcompact/compact/llmsummary"
	"github.com/agentcompact/compact/prompts"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

var summarizerCorpus = flag.String("summarizer-corpus", "../../shared/eval/trajectories",
	"folder of JSONL agent trajectories for TestSummarizerCorpusMeasure (skipped when absent)")

// scriptedSummarizerModel is an offline stand-in for a summarizer model. It
// reads the prompt like a compliant model would: the narrative names the
// first user request it sees (in the previous summary or the transcript),
// the key points are the most recent condensed tool outputs, the entities
// the file names of the previous summary and the transcript; it keeps its
// JSON reply within the call's MaxTokens. Every failEvery-th call fails
// with a 503 and every badEvery-th call returns prose (0 disables).
type scriptedSummarizerModel struct {
	count               func(string) int
	failEvery, badEvery int
	calls               int
}

func (m *scriptedSummarizerModel) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

func (m *scriptedSummarizerModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	m.calls++
	if m.failEvery > 0 && m.calls%m.failEvery == 0 {
		return nil, errors.New("API returned unexpected status code: 503: overloaded")
	}
	if m.badEvery > 0 && m.calls%m.badEvery == 0 {
		return reply("Sure! The agent worked on the repository."), nil
	}
	var o llms.CallOptions
	for _, f := range options {
		f(&o)
	}
	user := msgs[len(msgs)-1].Parts[0].(llms.TextContent).Text
	s := prompts.Summary{Summary: "The agent continued the task."}
	if i := strings.Index(user, "role=user>\n"); i >= 0 {
		first := user[i+len("role=user>\n"):]
		first, _, _ = strings.Cut(first, "\n</message>")
		s.Summary = "The user asked: " + firstWords(first, 40)
	}
	if i := strings.Index(user, `{"summary":"`); i >= 0 {
		prev := user[i+len(`{"summary":"`):]
		prev, _, _ = strings.Cut(prev, `"`)
		s.Summary = firstWords(prev, 40) + " Since then the agent continued."
	}
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(user, func(r rune) bool {
		return !(r == '/' || r == '_' || r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) {
		w = strings.Trim(w, ".-/")
		if ext := filepath.Ext(w); (ext == ".py" || ext == ".go" || ext == ".js" || ext == ".txt" || ext == ".cfg") && len(w) < 120 && !seen[w] {
			seen[w] = true
			s.Context.DomainEntities = append(s.Context.DomainEntities, w)
		}
	}
	if len(s.Context.DomainEntities) > prompts.MaxItems {
		s.Context.DomainEntities = s.Context.DomainEntities[len(s.Context.DomainEntities)-prompts.MaxItems:]
	}
	for _, line := range strings.Split(user, "\n") {
		if strings.HasPrefix(line, "[✓") || strings.HasPrefix(line, "[❌") || strings.HasPrefix(line, "[⚠") {
			s.KeyPoints = append(s.KeyPoints, firstWords(line, 30))
		}
	}
	if len(s.KeyPoints) > prompts.MaxKeyPoints {
		s.KeyPoints = s.KeyPoints[len(s.KeyPoints)-prompts.MaxKeyPoints:]
	}
	text := prompts.MarshalSummary(s)
	for o.MaxTokens > 0 && m.count(text) > o.MaxTokens && (len(s.KeyPoints) > 0 || len(s.Context.DomainEntities) > 0) {
		if len(s.KeyPoints) > 0 {
			s.KeyPoints = s.KeyPoints[1:]
		} else {
			s.Context.DomainEntities = s.Context.DomainEntities[1:]
		}
		text = prompts.MarshalSummary(s)
	}
	return reply(text), nil
}

func reply(content string) *llms.ContentResponse {
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: content}}}
}

// firstWords returns the first n words of s, at most 300 bytes.
func firstWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) > n {
		w = w[:n]
	}
	out := strings.Join(w, " ")
	if len(out) > 300 {
		out = strings.ToValidUTF8(out[:300], "")
	}
	return out
}

// TestSummarizerCorpusMeasure replays the evaluation corpus turn by turn
// through the engine with the LLM summarizer over a scripted model, and
// prints summarizer calls per run, tokens per call and the share of
// summarizing compactions that fell back to the rule-based digest. Run with
// -v; it is skipped when the corpus folder is absent.
func TestSummarizerCorpusMeasure(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus measurement skipped in -short mode")
	}
	files, err := trajectory.Files(*summarizerCorpus)
	if err != nil || len(files) == 0 {
		t.Skipf("no trajectories in %s", *summarizerCorpus)
	}
	counter, err := budget.NewCounter("gpt-4o")
	require.NoError(t, err)

	type config struct {
		name                string
		window              int
		failEvery, badEvery int
	}
	for _, cfg := range []config{
		{name: "faithful", window: 16_000},
		{name: "faithful", window: 32_000},
		{name: "flaky (every 4th call 503, every 7th prose)", window: 32_000, failEvery: 4, badEvery: 7},
	} {
		var (
			runs, summarizing, fellBack, llmMode, shrunk, trimmedCalls  int
			cut, retries, transportErrs, validationErrs, modelFallbacks int
			callsPerRun, inTok, outTok, attempts                        []int
			modes                                                       = map[string]int{}
		)
		for _, f := range files {
			msgs, err := trajectory.ReadFile(f)
			require.NoError(t, err)
			model := &scriptedSummarizerModel{count: counter.Count, failEvery: cfg.failEvery, badEvery: cfg.badEvery}
			sum := llmsummary.New([]llms.Model{model},
				llmsummary.WithSleep(func(ctx context.Context, _ time.Duration) error { return ctx.Err() }))
			c, err := compact.New(compact.WithContextWindow(cfg.window), compact.WithCustomSummarizer(sum))
			require.NoError(t, err)
			s := compact.NewSession(filepath.Base(f))
			runs++
			runCalls := 0
			for i := 1; i <= len(msgs); i++ {
				if i < len(msgs) && msgs[i].Role != llms.ChatMessageTypeAI {
					continue
				}
				before := sum.Stats()
				res, err := c.Compact(context.Background(), s, msgs[:i])
				require.NoError(t, err, "%s call %d", f, i)
				ev := res.Event
				if ev == nil || ev.SummarizerCalls == 0 {
					continue
				}
				require.Len(t, ev.Calls, ev.SummarizerCalls, "one report per model call")
				after := sum.Stats()
				runCalls++
				summarizing++
				in, out := 0, 0
				for _, call := range ev.Calls {
					in += call.InputTokens
					out += call.OutputTokens
					if call.Attempt > 1 {
						retries++
					}
					switch {
					case errors.Is(call.Err, prompts.ErrInvalidSummary):
						validationErrs++
					case call.Err != nil:
						transportErrs++
					case call.Model != ev.Calls[0].Model:
						modelFallbacks++
					}
				}
				cut += after.CutMessages - before.CutMessages
				attempts = append(attempts, len(ev.Calls))
				inTok = append(inTok, in/len(ev.Calls))
				outTok = append(outTok, out/len(ev.Calls))
				if after.Shrunk > before.Shrunk {
					shrunk++
				}
				if after.TrimmedMessages > before.TrimmedMessages {
					trimmedCalls++
				}
				modes[ev.Mode]++
				if after.Failures > before.Failures || ev.Mode == compact.ModeFallback || ev.Err != nil {
					fellBack++
				} else {
					llmMode++
				}
			}
			callsPerRun = append(callsPerRun, runCalls)
			require.Equal(t, runCalls, sum.Stats().Calls, "one Summarize call per summarizing compaction")
		}
		t.Logf("%s, window %d, %d runs: summarizer calls per run mean %.2f, median %d, max %d (total %d; %d kept the LLM summary, %d fell back = %.1f%%)",
			cfg.name, cfg.window, runs, measureMean(callsPerRun), measurePct(callsPerRun, 50), measurePct(callsPerRun, 100), summarizing, llmMode, fellBack,
			100*float64(fellBack)/float64(max(summarizing, 1)))
		t.Logf("  per Summarize call: model attempts mean %.2f, max %d; input tokens per attempt mean %.0f, p50 %d, p95 %d, max %d; output tokens per attempt mean %.0f, p95 %d, max %d",
			measureMean(attempts), measurePct(attempts, 100), measureMean(inTok), measurePct(inTok, 50), measurePct(inTok, 95), measurePct(inTok, 100), measureMean(outTok), measurePct(outTok, 95), measurePct(outTok, 100))
		t.Logf("  summaries shrunk by rules: %d of %d; transcripts trimmed (oldest left out): %d; messages cut: %d; retries %d, transport errors %d, validation errors %d, next-model fallbacks %d",
			shrunk, summarizing, trimmedCalls, cut, retries, transportErrs, validationErrs, modelFallbacks)
		t.Logf("  event modes of the summarizing compactions: %v", modes)
		require.Equal(t, summarizing, llmMode+fellBack)
		if cfg.failEvery == 0 && cfg.badEvery == 0 {
			require.Zero(t, fellBack, "a compliant model never falls back")
		}
	}
}

func measureMean(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	sum := 0
	for _, x := range xs {
		sum += x
	}
	return float64(sum) / float64(len(xs))
}

// pct returns the p-th percentile (nearest rank) of xs; p=100 is the max.
func measurePct(xs []int, p int) int {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	i := (p*len(s) + 99) / 100
	return s[min(max(i-1, 0), len(s)-1)]
}
