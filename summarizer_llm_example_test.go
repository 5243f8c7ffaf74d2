package compact_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/agentcompact/compact"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/fake"
	"github.com/tmc/langchaingo/llms/openai"
)

func ExampleNewLLMSummarizer() {
	// A scripted model stands in for a real one here.
	model := fake.NewFakeLLM([]string{`{"summary":"The user asked to rename Load to Read in config.go; done, tests pass.",` +
		`"keyPoints":["config.go: Load renamed to Read"],"context":{"domainEntities":["config.go"]}}`})
	s := compact.NewLLMSummarizer([]llms.Model{model})

	var st compact.SummarizerStats
	ctx := compact.ContextWithSummarizerStats(context.Background(), &st)
	rec, err := s.Summarize(ctx, compact.SummarizeRequest{
		Messages: []llms.MessageContent{
			llms.TextParts(llms.ChatMessageTypeHuman, "Rename Load to Read in config.go"),
			llms.TextParts(llms.ChatMessageTypeAI, "Done; go test ./... passes."),
		},
		Depth:          1,
		MaxTokens:      500,
		MaxInputTokens: 8000,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Mode)
	fmt.Println(rec.Summary)
	fmt.Println("model calls:", st.Attempts)
	// Output:
	// llm
	// The user asked to rename Load to Read in config.go; done, tests pass.
	// Key points:
	// - config.go: Load renamed to Read
	// Entities: config.go
	// model calls: 1
}

func ExampleWithRetryPolicy() {
	p := compact.DefaultRetryPolicy()
	p.MaxRetries = 2                    // three attempts per model
	p.AttemptTimeout = 20 * time.Second // bound each call
	p.CheckRetry = func(ctx context.Context, err error) bool {
		return compact.IsRetryable(err) && !errors.Is(err, errQuotaExhausted)
	}
	light := fake.NewFakeLLM([]string{`{"summary":"ok"}`})
	s := compact.NewLLMSummarizer([]llms.Model{light},
		compact.WithRetryPolicy(p),
		compact.WithSummarizerLogger(slog.New(slog.NewTextHandler(os.Stderr, nil))),
		compact.WithSummarizerWindow(16_000),
	)
	rec, err := s.Summarize(context.Background(), compact.SummarizeRequest{
		Messages:  []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hello")},
		MaxTokens: 100,
	})
	fmt.Println(rec.Summary, err)
	// Output:
	// ok <nil>
}

var errQuotaExhausted = errors.New("quota exhausted")

func ExampleIsRetryable() {
	fmt.Println(compact.IsRetryable(errors.New("API returned unexpected status code: 503: overloaded")))
	fmt.Println(compact.IsRetryable(errors.New("API returned unexpected status code: 401: Incorrect API key provided")))
	fmt.Println(compact.IsRetryable(context.Canceled))
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
		openai.WithHTTPClient(&http.Client{Transport: compact.NewRetryAfterTransport(nil)}),
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
