package llmsummary_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/llmsummary"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/llms/openai"
)

func ExampleNew() {
	// A scripted model stands in for a real one here.
	model := fake.NewFakeLLM([]string{`{"summary":"The user asked to rename Load to Read in config.go; done, tests pass.",` +
		`"keyPoints":["config.go: Load renamed to Read"],"context":{"domainEntities":["config.go"]}}`})
	s := llmsummary.New([]llms.Model{model}, llmsummary.WithModelNames("gpt-4o-mini"))

	rec, err := s.Summarize(context.Background(), summary.Request{
		Messages: []llms.MessageContent{
			llms.TextParts(llms.ChatMessageTypeHuman, "Rename Load to Read in config.go"),
			llms.TextParts(llms.ChatMessageTypeAI, "Done; go test ./... passes."),
		},
		Depth:          1,
		MaxTokens:      500,
		MaxInputTokens: 8000,
		OnCall: func(_ context.Context, c summary.Call) {
			fmt.Printf("model call: %s, attempt %d, error %v\n", c.Model, c.Attempt, c.Err)
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Mode)
	fmt.Println(rec.Summary)
	fmt.Println("model calls:", s.Stats().Attempts)
	// Output:
	// model call: gpt-4o-mini, attempt 1, error <nil>
	// llm
	// The user asked to rename Load to Read in config.go; done, tests pass.
	// Key points:
	// - config.go: Load renamed to Read
	// Entities: config.go
	// model calls: 1
}

// The engine builds an LLM summarizer with the default options from
// compact.WithSummarizer(models...); for other options, build it here and
// give it to compact.WithCustomSummarizer.
func ExampleNew_engine() {
	light, heavy := fake.NewFakeLLM([]string{`{"summary":"ok"}`}), fake.NewFakeLLM([]string{`{"summary":"ok"}`})
	s := llmsummary.New([]llms.Model{light, heavy},
		llmsummary.WithModelNames("gpt-4o-mini", "gpt-4o"),
		llmsummary.WithLogger(slog.New(slog.NewTextHandler(os.Stderr, nil))),
		llmsummary.WithWindow(16_000), // the smaller model's context window
	)
	c, err := compact.New(compact.WithContextWindow(32_000), compact.WithCustomSummarizer(s),
		compact.WithEventHandler(compact.EventHandlerFunc(func(_ context.Context, e compact.Event) {
			for _, call := range e.Calls { // one report per summarizer model call
				slog.Info("summarizer call", "model", call.Model, "attempt", call.Attempt,
					"in", call.InputTokens, "out", call.OutputTokens, "duration", call.Duration, "error", call.ErrText)
			}
		})))
	fmt.Println(c != nil, err)
	// Output:
	// true <nil>
}

func ExampleWithRetryPolicy() {
	p := llmsummary.DefaultRetryPolicy()
	p.MaxRetries = 2                    // three attempts per model
	p.AttemptTimeout = 20 * time.Second // bound each call
	p.CheckRetry = func(ctx context.Context, err error) bool {
		return llmsummary.IsRetryable(err) && !errors.Is(err, errQuotaExhausted)
	}
	light := fake.NewFakeLLM([]string{`{"summary":"ok"}`})
	s := llmsummary.New([]llms.Model{light}, llmsummary.WithRetryPolicy(p))
	rec, err := s.Summarize(context.Background(), summary.Request{
		Messages:  []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hello")},
		MaxTokens: 100,
	})
	fmt.Println(rec.Summary, err)
	// Output:
	// ok <nil>
}

var errQuotaExhausted = errors.New("quota exhausted")

func ExampleIsRetryable() {
	fmt.Println(llmsummary.IsRetryable(errors.New("API returned unexpected status code: 503: overloaded")))
	fmt.Println(llmsummary.IsRetryable(errors.New("API returned unexpected status code: 401: Incorrect API key provided")))
	fmt.Println(llmsummary.IsRetryable(context.Canceled))
	// Output:
	// true
	// false
	// false
}

func ExampleNewRetryAfterTransport() {
	// langchaingo's OpenAI client drops response headers; this transport lets
	// the summarizer see a 429's Retry-After.
	model, err := openai.New(
		openai.WithModel("gpt-4o-mini"),
		openai.WithToken("sk-..."),
		openai.WithHTTPClient(&http.Client{Transport: llmsummary.NewRetryAfterTransport(nil)}),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = compact.New(compact.WithSummarizer(model))
	fmt.Println(err)
	// Output:
	// <nil>
}
