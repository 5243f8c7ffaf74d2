// Command agent runs a real langchaingo agent (agents.OpenAIFunctionsAgent
// and agents.Executor) whose model is wrapped with middleware.Wrap, so that
// the context is compacted inside the agent's tool loop, and shows what
// happened on every call.
//
// The agent explores a directory (this project's source by default) with
// real tools: list_dir, grep, read_file and go_vet, and the middleware's
// recall tool, which brings back what compaction masked, cut or
// summarized. Offline (the default when no provider is configured) a
// deterministic scripted model drives it, recalls one condensed output by
// the ref its marker shows, and with -llm-summarizer also writes the
// summaries; with OPENAI_API_KEY set it uses OpenAI, with -ollama an Ollama
// server.
//
//	go run ./examples/agent                       # offline, this project
//	go run ./examples/agent -llm-summarizer       # offline, LLM-mode summaries
//	go run ./examples/agent -llm-summarizer -otel # and the OpenTelemetry spans and metrics
//	go run ./examples/agent -dir ~/src/myproject -window 16000
//	OPENAI_API_KEY=... go run ./examples/agent -model gpt-4o-mini
//	go run ./examples/agent -ollama http://localhost:11434 -model llama3.1
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/scripted"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/recall"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"
	"go.opentelemetry.io/otel/trace"
)

const defaultTask = "Explore this Go project: list it, find its constructors, read the files that matter, run go vet, and explain in a few sentences what the project does."

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// config holds the parsed flags.
type config struct {
	dir, model, ollamaURL, task string
	window, files, maxIter      int
	trigger, reset              float64 // 0: the engine's cost-aware default
	offline, llmSummary, quiet  bool
	otel                        bool
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.dir, "dir", ".", "`directory` the agent explores (read-only, except for go vet's build cache)")
	fs.IntVar(&cfg.window, "window", 8000, "context window in `tokens`; small by default so that compaction visibly happens (a quarter is reserved for the reply)")
	fs.Float64Var(&cfg.trigger, "trigger", 0, "trigger `ratio` of the budget at which compaction starts, with -reset (compact.WithTrigger); 0: the engine's default, which compacts deep; -trigger 0.8 -reset 0.7 is the specification's shallow policy, which leaves condensed outputs (and their refs) in the context")
	fs.Float64Var(&cfg.reset, "reset", 0, "reset `ratio` of the budget a compaction aims for, with -trigger")
	fs.StringVar(&cfg.model, "model", "", "model `name`: default gpt-4o-mini with OPENAI_API_KEY, llama3.1 with -ollama; also selects the tokenizer")
	fs.StringVar(&cfg.ollamaURL, "ollama", "", "Ollama server `URL` (e.g. http://localhost:11434); takes precedence over OPENAI_API_KEY")
	fs.BoolVar(&cfg.offline, "offline", false, "use the scripted model even if a provider is configured")
	fs.IntVar(&cfg.files, "files", 12, "how many files the scripted model reads")
	fs.IntVar(&cfg.maxIter, "max-iterations", 24, "the executor's iteration limit")
	fs.StringVar(&cfg.task, "task", defaultTask, "the task given to the agent")
	fs.BoolVar(&cfg.llmSummary, "llm-summarizer", false, "summarize with the model itself through the engine's LLM summarizer (default: the rule-based digest); offline, the scripted model answers with a JSON summary built from the digest of the transcript it is sent")
	fs.BoolVar(&cfg.quiet, "quiet", false, "no progress lines while the agent runs")
	fs.BoolVar(&cfg.otel, "otel", false, "trace and measure compaction with OpenTelemetry (otelcompact) and print the spans and metrics with the stdout exporters at the end")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: go run ./examples/agent [flags]

Runs a langchaingo OpenAI-functions agent with real tools (list_dir, grep,
read_file, go_vet, and the middleware's recall tool) over a directory, its
model wrapped with middleware.Wrap, and reports every model call: the
tokens the agent built, the tokens sent, each compaction, each use of
recall, the final summary and totals.

Model: with -ollama, that Ollama server; else with OPENAI_API_KEY set
(OPENAI_BASE_URL is honoured), OpenAI; else, or with -offline, a scripted
model that works offline and deterministically and finishes in seconds.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return cfg, fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	switch {
	case cfg.window < 1000:
		return cfg, fmt.Errorf("-window %d: must be at least 1000 tokens", cfg.window)
	case cfg.files < 1:
		return cfg, fmt.Errorf("-files %d: must be at least 1", cfg.files)
	case cfg.maxIter < 1:
		return cfg, fmt.Errorf("-max-iterations %d: must be at least 1", cfg.maxIter)
	case (cfg.trigger == 0) != (cfg.reset == 0):
		return cfg, fmt.Errorf("-trigger %g -reset %g: give both or neither", cfg.trigger, cfg.reset)
	}
	return cfg, nil
}

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "agent:", err)
		return 2
	}
	if err := runAgent(ctx, cfg, stdout); err != nil {
		fmt.Fprintln(stderr, "agent:", err)
		return 1
	}
	return 0
}

// chooseModel returns the model to drive the agent, its display name and
// the model name that selects the tokenizer.
func chooseModel(cfg config) (llms.Model, string, string, error) {
	switch {
	case cfg.offline:
	case cfg.ollamaURL != "":
		name := cfg.model
		if name == "" {
			name = "llama3.1"
		}
		m, err := ollama.New(ollama.WithServerURL(cfg.ollamaURL), ollama.WithModel(name))
		if err != nil {
			return nil, "", "", fmt.Errorf("ollama client for %s: %w", cfg.ollamaURL, err)
		}
		return m, "ollama " + name, name, nil
	case os.Getenv("OPENAI_API_KEY") != "":
		name := cfg.model
		if name == "" {
			name = "gpt-4o-mini"
		}
		m, err := openai.New(openai.WithModel(name))
		if err != nil {
			return nil, "", "", fmt.Errorf("openai client: %w", err)
		}
		return m, "openai " + name, name, nil
	}
	// The scripted summary model counts with the engine's counter (the
	// request's Count).
	return &scriptedAgent{maxFiles: cfg.files, summaries: scripted.Model{}}, "scripted (offline, deterministic)", "gpt-4o", nil
}

func runAgent(ctx context.Context, cfg config, out io.Writer) error {
	root, err := filepath.Abs(cfg.dir)
	if err != nil {
		return fmt.Errorf("-dir %q: %w", cfg.dir, err)
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return fmt.Errorf("-dir %q: not a directory", cfg.dir)
	}
	base, name, tokenizer, err := chooseModel(cfg)
	if err != nil {
		return err
	}
	opts := []compact.Option{compact.WithModel(tokenizer), compact.WithContextWindow(cfg.window)}
	if cfg.trigger != 0 {
		opts = append(opts, compact.WithTrigger(cfg.trigger, cfg.reset))
	}
	switch _, offline := base.(*scriptedAgent); {
	case !cfg.llmSummary:
	case offline:
		// The same LLM summarizer as compact.WithSummarizer(base), that also
		// hands each request to the scripted model through the context: it
		// builds its JSON from the request's messages the transcript shows.
		opts = append(opts, compact.WithCustomSummarizer(scripted.NewSummarizer(base)))
	default:
		opts = append(opts, compact.WithSummarizer(base))
	}
	var tel *telemetry
	var recallOpts []recall.Option
	if cfg.otel {
		if tel, err = newTelemetry(); err != nil {
			return err
		}
		opts = append(opts, compact.WithEventHandler(tel.tel.EventHandler()))
		recallOpts = append(recallOpts, recall.WithObserver(tel.tel.RecallObserver()))
		var span trace.Span
		ctx, span = tel.tracer.Start(ctx, "agent run")
		defer func() {
			span.End()
			if ferr := tel.flush(context.WithoutCancel(ctx), out); ferr != nil {
				fmt.Fprintln(out, "otel:", ferr)
			}
		}()
	}
	c, err := compact.New(opts...)
	if err != nil {
		return fmt.Errorf("compactor: %w", err)
	}

	var mu sync.Mutex
	var calls []middleware.CallInfo
	say := func(format string, args ...any) {
		if !cfg.quiet {
			mu.Lock()
			fmt.Fprintf(out, "  · "+format+"\n", args...)
			mu.Unlock()
		}
	}
	// The taps keep the latest context the model was sent (below the
	// middleware) and the agent built (above it), for the recall report.
	sent := &tap{Model: base}
	llm := middleware.Wrap(sent, c, middleware.WithObserver(func(i middleware.CallInfo) {
		mu.Lock()
		calls = append(calls, i)
		n := len(calls)
		mu.Unlock()
		if !cfg.quiet {
			say("%s", progressLine(n, i))
		}
	}), middleware.WithRecallOptions(recallOpts...))

	fmt.Fprintf(out, "agent: %s over %s\n", name, root)
	fmt.Fprintf(out, "window %s tokens, budget %s (reply reserve %s), tokenizer %s\n\n",
		num(c.Window()), num(c.Budget()), num(c.Window()-c.Budget()), c.Counter().Encoding())

	built := &tap{Model: llm}
	tl := newTools(root, say)
	// The recall tool, recorded for the report; it finds its session in
	// the context the executor passes to tools (middleware.WithSession).
	recaller := &recallRecorder{Tool: llm.RecallTool(), built: built, sent: sent, say: say, calls: func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(calls)
	}}
	tl = append(tl, recaller)
	exec := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(built, tl), agents.WithMaxIterations(cfg.maxIter))
	const sessionID = "example-agent"
	start := time.Now()
	answer, runErr := chains.Run(middleware.WithSession(ctx, sessionID), exec, cfg.task)
	elapsed := time.Since(start)

	mu.Lock()
	defer mu.Unlock()
	if runErr == nil {
		fmt.Fprintf(out, "\nAnswer:\n%s\n", indent(answer, "  "))
	}
	report(out, c, llm.Session(sessionID), calls, elapsed, func(out io.Writer) { reportRecall(out, recaller.used()) })
	if runErr != nil {
		return fmt.Errorf("agent run: %w", runErr)
	}
	return nil
}

func progressLine(n int, i middleware.CallInfo) string {
	s := fmt.Sprintf("model call %d: agent built %s tokens (%d msgs) → sent %s (%d msgs)",
		n, num(i.InputTokens), i.Messages, num(i.SentTokens), i.SentMessages)
	for _, e := range i.Compactions {
		s += fmt.Sprintf("  ✂ %s/%s %s→%s", e.Reason, e.Mode, num(e.TokensBefore), num(e.TokensAfter))
	}
	if i.Err != nil {
		s += "  error: " + i.Err.Error()
	}
	return s
}

// report writes the calls, the compactions, the recall section (written
// by recall), the final summary and the totals.
func report(out io.Writer, c *compact.Compactor, s *compact.Session, calls []middleware.CallInfo, elapsed time.Duration, recall func(io.Writer)) {
	fmt.Fprintf(out, "\nModel calls (tokens as the engine counts them):\n")
	fmt.Fprintf(out, "  %4s  %12s  %12s  %8s  %s\n", "call", "agent built", "sent", "budget", "compaction")
	var built, sent, maxBuilt int
	var events []struct {
		call int
		e    compact.Event
	}
	for n, i := range calls {
		note := ""
		for _, e := range i.Compactions {
			events = append(events, struct {
				call int
				e    compact.Event
			}{n + 1, e})
			note += fmt.Sprintf("#%d %s ", len(events), e.Reason)
		}
		if i.Retried {
			note += "(retried after overflow) "
		}
		if i.ProviderPromptTokens > 0 {
			note += fmt.Sprintf("[provider counted %s] ", num(i.ProviderPromptTokens))
		}
		fmt.Fprintf(out, "  %4d  %12s  %12s  %8s  %s\n", n+1,
			fmt.Sprintf("%s/%d", num(i.InputTokens), i.Messages), fmt.Sprintf("%s/%d", num(i.SentTokens), i.SentMessages),
			num(i.Budget), strings.TrimSpace(note))
		built += i.InputTokens
		sent += i.SentTokens
		maxBuilt = max(maxBuilt, i.InputTokens)
	}
	fmt.Fprintf(out, "  (tokens/messages)\n")

	fmt.Fprintf(out, "\nCompactions:\n")
	if len(events) == 0 {
		fmt.Fprintf(out, "  none: the context never reached the trigger ratio (try a smaller -window)\n")
	}
	for k, ev := range events {
		e := ev.e
		fmt.Fprintf(out, "  #%d at call %d: %s, mode %s, depth %d: %s → %s tokens (ratio %.2f → %.2f), %d → %d messages; %d outputs masked, %d messages summarized, %d cut\n",
			k+1, ev.call, e.Reason, e.Mode, e.Depth, num(e.TokensBefore), num(e.TokensAfter), e.RatioBefore, e.RatioAfter,
			e.MessagesBefore, e.MessagesAfter, e.Masked, e.Dropped, e.Truncated)
	}

	recall(out)

	fmt.Fprintf(out, "\nFinal summary:\n")
	if s == nil || s.Latest() == nil {
		fmt.Fprintf(out, "  none: masking old tool outputs was enough\n")
	} else {
		l := s.Latest()
		fmt.Fprintf(out, "  depth %d, mode %s, covers %d messages, %s tokens:\n%s\n", l.Depth, l.Mode, len(l.OriginalMessageIDs), num(l.TokenEstimate), indent(l.Summary, "    "))
	}

	fmt.Fprintf(out, "\nTotals: %d model calls in %.1fs; the agent built %s tokens in all, %s were sent", len(calls), elapsed.Seconds(), num(built), num(sent))
	if built > 0 {
		fmt.Fprintf(out, " (%.0f%% saved)", 100*float64(built-sent)/float64(built))
	}
	fmt.Fprintf(out, "; %d compactions; largest context built %s tokens for a %s-token budget.\n", len(events), num(maxBuilt), num(c.Budget()))
	if s != nil {
		st := s.Stats()
		fmt.Fprintf(out, "Session: %d messages, %d masked, %d summarized in %d summaries, calibration %.2f.\n",
			st.MessagesTotal, st.MessagesMasked, st.MessagesSummarized, st.Summaries, s.Calibration())
	}
}

// num formats n with thousands separators.
func num(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n")
}
