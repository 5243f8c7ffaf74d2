package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/internal/trajectory"
	"github.com/tmc/langchaingo/llms"
)

// defaultDirs are the corpus folders: the coding-agent trajectories and the
// runs of other frameworks.
var defaultDirs = filepath.Join("..", "shared", "eval", "trajectories") + "," + filepath.Join("..", "shared", "eval", "frameworks")

// config is the command line.
type config struct {
	dir        string
	windows    []int
	strategies []string
	out        string
	workers    int
	plotRun    string
	plotWindow int
	prices     prices
	llmMode    string
	llmModel   string
	via        string
	progress   bool
	command    string      // the command line, for the report
	chats      string      // the chats mode's folder (chats.go); "" = off
	windowsSet bool        // -windows was given
	chatJoin   int         // the chats mode joins this many conversations into one (joinChats); <= 1 = none
	chatVar    chatVariant // the chats mode's history and replies (chatsvariant.go)
	dump       string      // -dump: folder of what every call sent, DIR/<strategy>/<window>/<file>; "" = none
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "compact-eval:", err)
		os.Exit(2)
	}
	if err := run(ctx, cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "compact-eval:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fset := flag.NewFlagSet("compact-eval", flag.ContinueOnError)
	fset.SetOutput(stderr)
	cfg := config{prices: defaultPrices}
	var windows, strategies string
	fset.StringVar(&cfg.dir, "dir", defaultDirs, "folders of JSONL trajectories, comma separated (relative to the working directory); each file's source is its name up to \"__\"")
	fset.StringVar(&windows, "windows", "16000,32000,128000", "context windows in tokens, comma separated")
	fset.StringVar(&strategies, "strategies", strings.Join(defaultStrategies, ","), "strategies, comma separated: none, oldest-first, mask-last-N, ours-mask, ours-rule, ours-llm (optionally :key=value tuned), ours-llm-same, and the peers "+strings.Join(peerNames(), ", "))
	fset.StringVar(&cfg.out, "out", filepath.Join("docs", "eval"), "output folder of report.md, tokens.png, retention.png, runs.csv")
	fset.IntVar(&cfg.workers, "workers", 2, "trajectories replayed at once")
	fset.StringVar(&cfg.plotRun, "plot-run", "", "trajectory (file name) of the tokens-per-call plot; default: the one with the most calls")
	fset.IntVar(&cfg.plotWindow, "plot-window", 32000, "window of the tokens-per-call plot (default 32000, or the first window)")
	fset.Float64Var(&cfg.prices.input, "price-input", defaultPrices.input, "input price, dollars per million tokens (gpt-4o)")
	fset.Float64Var(&cfg.prices.output, "price-output", defaultPrices.output, "output price, dollars per million tokens (summarizer replies)")
	fset.StringVar(&cfg.llmMode, "llm", llmAuto, "summarizer model of ours-llm: auto (openai if OPENAI_API_KEY is set), scripted, openai")
	fset.StringVar(&cfg.llmModel, "llm-model", "gpt-4o-mini", "OpenAI model of the summarizer with -llm openai")
	fset.StringVar(&cfg.via, "via", viaMiddleware, "how ours is called: middleware (middleware.Wrap around a recording model) or engine (Compactor.Compact)")
	quiet := fset.Bool("quiet", false, "no progress bar")
	fset.StringVar(&cfg.chats, "chats", "", "chats mode: replay the conversations of this folder (../shared/eval/chats) through memory.New as a conversation chain does, and check their probes (see chats.go)")
	fset.IntVar(&cfg.chatJoin, "chatjoin", 1, "chats mode: replay every N conversations joined into one long conversation (their turns in order, all their probes), to measure conversations longer than the folder's")
	fset.StringVar(&cfg.chatVar.history, "chathistory", chatHistoryDefault, "chats mode: the Memory's history: default, or langchaingo (memory.NewChatMessageHistory(), as the README's snippet; see chatsvariant.go)")
	fset.BoolVar(&cfg.chatVar.talkative, "chattalk", false, "chats mode: every reply followed by a talkative paragraph of specific details (see chatsvariant.go)")
	fset.StringVar(&cfg.dump, "dump", "", "write what every model call sent to DIR/<strategy>/<window>/<trajectory file name>, one JSON line per call: {\"answers\": index of the assistant message the call answers, \"messages\": [...] in the trajectory format}; score it with cmd/compact-eval/testdata/usedlater.py")
	frontier := fset.Bool("frontier", false, "also evaluate the grid of trigger and reset ratios (ours-rule) and report the cost-retention frontier")
	if err := fset.Parse(args); err != nil {
		return config{}, err
	}
	if fset.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments: %q", fset.Args())
	}
	cfg.progress = !*quiet
	fset.Visit(func(f *flag.Flag) { cfg.windowsSet = cfg.windowsSet || f.Name == "windows" })
	if err := checkChatHistory(cfg.chatVar.history); err != nil {
		return config{}, err
	}
	if cfg.via != viaMiddleware && cfg.via != viaEngine {
		return config{}, fmt.Errorf("-via: %q is neither %s nor %s", cfg.via, viaMiddleware, viaEngine)
	}
	for _, w := range strings.Split(windows, ",") {
		w = strings.TrimSpace(strings.ReplaceAll(w, "_", ""))
		if w == "" {
			continue
		}
		n, err := strconv.Atoi(w)
		if err != nil || n <= 0 {
			return config{}, fmt.Errorf("-windows: %q is not a positive number of tokens", w)
		}
		cfg.windows = append(cfg.windows, n)
	}
	if len(cfg.windows) == 0 {
		return config{}, errors.New("-windows: no window given")
	}
	for _, s := range strings.Split(strategies, ",") {
		if s = strings.TrimSpace(s); s != "" {
			cfg.strategies = append(cfg.strategies, s)
		}
	}
	if len(cfg.strategies) == 0 {
		return config{}, errors.New("-strategies: no strategy given")
	}
	if *frontier {
		for _, g := range frontierStrategies() {
			if !slices.Contains(cfg.strategies, g) {
				cfg.strategies = append(cfg.strategies, g)
			}
		}
	}
	if cfg.workers < 1 {
		return config{}, fmt.Errorf("-workers: %d must be at least 1", cfg.workers)
	}
	cfg.command = strings.TrimSpace("go run ./cmd/compact-eval " + strings.Join(args, " "))
	return cfg, nil
}

// evaluation is the outcome of one run of the harness.
type evaluation struct {
	cfg        config
	files      []string // base names, sorted per folder
	folders    []string // the folder (base name) of each file
	bySource   []sourceRows
	messages   int
	calls      int // model calls per strategy and window
	results    []runResult
	rows       []row
	plotRun    string
	plotWindow int
	sumDesc    string
	encoding   string
	elapsed    time.Duration
	// bounds holds, per window, the stability bound of each folder's runs
	// (by folder base name) and of all of them ("").
	bounds map[int]map[string]stabilityBound
}

// run evaluates, prints the tables on stdout and writes the report and plots.
func run(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	if cfg.chats != "" {
		return runChats(withChatVariant(ctx, cfg.chatVar), cfg, stdout)
	}
	ev, err := evaluate(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	printTables(stdout, ev)
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return fmt.Errorf("create output folder: %w", err)
	}
	if err := writePlots(ev, cfg.out); err != nil {
		return err
	}
	if err := writeCSV(ev, filepath.Join(cfg.out, "runs.csv")); err != nil {
		return err
	}
	path := filepath.Join(cfg.out, "report.md")
	if err := os.WriteFile(path, []byte(renderReport(ev)), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	fmt.Fprintf(stdout, "\nwrote %s, %s, %s, %s\n", path, filepath.Join(cfg.out, "tokens.png"),
		filepath.Join(cfg.out, "retention.png"), filepath.Join(cfg.out, "runs.csv"))
	return nil
}

// evaluate replays every trajectory of cfg.dir with every strategy at
// every window and aggregates the results.
func evaluate(ctx context.Context, cfg config, stderr io.Writer) (*evaluation, error) {
	start := time.Now()
	ev := &evaluation{cfg: cfg}
	var convs [][]llms.MessageContent
	for _, dir := range cfg.dirs() {
		c, err := ev.load(dir)
		if err != nil {
			return nil, err
		}
		convs = append(convs, c...)
	}
	if err := ev.pickPlotRun(convs); err != nil {
		return nil, err
	}
	// One tokenizer for everything: counts are cached per message.
	counter, err := budget.NewCounter("gpt-4o", budget.WithCacheSize(1<<18))
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	ev.encoding = counter.Encoding()
	strats, err := ev.strategies(counter)
	if err != nil {
		return nil, err
	}
	var bar *progress
	if cfg.progress && stderr != nil {
		bar = newProgress(stderr, ev.calls*len(cfg.windows)*len(cfg.strategies))
	}
	perFile := replayAll(ctx, cfg, ev.files, convs, strats, counter, bar)
	bar.finish()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("interrupted: %w", err)
	}
	for _, rs := range perFile {
		for _, r := range rs {
			if r.dumpErr != nil {
				return nil, fmt.Errorf("-dump: %w", r.dumpErr)
			}
		}
		ev.results = append(ev.results, rs...)
	}
	ev.bounds = boundsOf(ev, convs, counter, strats)
	ev.rows = aggregate(ev.results, cfg.windows, cfg.strategies, cfg.prices)
	ev.bySource = aggregateSources(ev, cfg.windows, cfg.strategies, cfg.prices)
	ev.plotWindow = cfg.windows[0]
	for _, w := range cfg.windows {
		if w == cfg.plotWindow {
			ev.plotWindow = w
		}
	}
	ev.elapsed = time.Since(start)
	return ev, nil
}

// load reads every trajectory of dir, recording their names and sizes.
func (ev *evaluation) load(dir string) ([][]llms.MessageContent, error) {
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("trajectory folder %q not found: pass -dir (the corpus is ../shared/eval/trajectories from the repository root)", dir)
		}
		return nil, fmt.Errorf("trajectory folder: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("trajectory folder %q is not a folder", dir)
	}
	paths, err := trajectory.Files(dir)
	if err != nil {
		return nil, fmt.Errorf("list trajectories in %q: %w", dir, err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no *.jsonl trajectory in %q", dir)
	}
	convs := make([][]llms.MessageContent, len(paths))
	for i, p := range paths {
		msgs, err := trajectory.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("read trajectory: %w", err)
		}
		convs[i] = msgs
		ev.files = append(ev.files, filepath.Base(p))
		ev.folders = append(ev.folders, filepath.Base(filepath.Clean(dir)))
		ev.messages += len(msgs)
		ev.calls += countCalls(msgs)
	}
	return convs, nil
}

// pickPlotRun sets the run plotted call by call: -plot-run, or the run
// with the most calls.
func (ev *evaluation) pickPlotRun(convs [][]llms.MessageContent) error {
	ev.plotRun = ev.cfg.plotRun
	if ev.plotRun != "" {
		if !slices.Contains(ev.files, ev.plotRun) {
			return fmt.Errorf("-plot-run: no trajectory %q in %q", ev.plotRun, ev.cfg.dir)
		}
		return nil
	}
	best := -1
	for i, msgs := range convs {
		if n := countCalls(msgs); n > best {
			best, ev.plotRun = n, ev.files[i]
		}
	}
	return nil
}

// strategies builds the strategies of every window, in the order of
// cfg.windows and cfg.strategies.
func (ev *evaluation) strategies(counter *budget.TokenCounter) ([][]strategy, error) {
	factory, desc, err := newSummarizerFactory(ev.cfg.llmMode, ev.cfg.llmModel, counter)
	if err != nil {
		return nil, err
	}
	ev.sumDesc = desc
	env := strategyEnv{counter: counter, summarizer: factory, via: ev.cfg.via}
	strats := make([][]strategy, len(ev.cfg.windows))
	for wi, w := range ev.cfg.windows {
		for _, name := range ev.cfg.strategies {
			s, err := newStrategy(name, w, env)
			if err != nil {
				return nil, err
			}
			strats[wi] = append(strats[wi], s)
		}
	}
	return strats, nil
}

// replayAll replays every conversation under every strategy, cfg.workers
// conversations at a time, and returns the results per conversation.
func replayAll(ctx context.Context, cfg config, files []string, convs [][]llms.MessageContent, strats [][]strategy,
	counter *budget.TokenCounter, bar *progress) [][]runResult {
	perFile := make([][]runResult, len(convs))
	sem := make(chan struct{}, cfg.workers)
	var wg sync.WaitGroup
	for i := range convs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			needs := usedLaterNeeds(convs[i])
			for wi, w := range cfg.windows {
				for _, s := range strats[wi] {
					if ctx.Err() != nil {
						return
					}
					perFile[i] = append(perFile[i], replayDumped(ctx, cfg.dump, files[i], convs[i], s, w, counter, bar.tick, needs))
				}
			}
		}()
	}
	wg.Wait()
	return perFile
}

// replayDumped replays one run, writing its dump under dir when dir is set.
func replayDumped(ctx context.Context, dir, file string, msgs []llms.MessageContent, st strategy, window int,
	counter *budget.TokenCounter, tick func(), needs laterNeeds) runResult {
	opts := replayOpts{needs: needs}
	if dir == "" {
		return replayRunOpts(ctx, file, msgs, st, window, counter, tick, opts)
	}
	sub := filepath.Join(dir, st.name, strconv.Itoa(window))
	fail := func(err error) runResult {
		return runResult{file: file, strategy: st.name, window: window, budget: st.budget, dumpErr: err}
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return fail(err)
	}
	f, err := os.Create(filepath.Join(sub, file))
	if err != nil {
		return fail(err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	opts.dump = w
	res := replayRunOpts(ctx, file, msgs, st, window, counter, tick, opts)
	res.dumpErr = cmpErr(res.dumpErr, w.Flush())
	res.dumpErr = cmpErr(res.dumpErr, f.Close())
	return res
}

// countCalls returns the number of model calls of a replay of msgs: one
// per assistant message after the first message.
func countCalls(msgs []llms.MessageContent) int {
	n := 0
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role == llms.ChatMessageTypeAI {
			n++
		}
	}
	return n
}
