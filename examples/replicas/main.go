// Command replicas shows two replicas of an agent service serving one
// conversation through PostgreSQL: each wraps its model with
// middleware.WithStore over a pgstore.Store of its own (its own pool, as a
// separate process has), the conversation's turns land on them in turn, and
// the output shows which replica compacted and that the other reused its
// compaction (one summarizer call, the same prefix) instead of compacting
// again. The models are offline and deterministic; only the database is
// real.
//
//	go run ./examples/replicas                      # the local server
//	go run ./examples/replicas -dsn postgres://user:pw@host:5432/db
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/internal/scripted"
	"github.com/agentcompact/compact/middleware"
	"github.com/agentcompact/compact/store/pgstore"
	"github.com/tmc/langchaingo/llms"
)

// defaultDSN is the local PostgreSQL of the development machines.
const defaultDSN = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

type config struct {
	dsn, session string
	turns        int
	window       int
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var cfg config
	fs := flag.NewFlagSet("replicas", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.dsn, "dsn", defaultDSN, "PostgreSQL `DSN` (URL or key=value pairs)")
	fs.StringVar(&cfg.session, "session", "", "conversation `id` (default: a new one per run)")
	fs.IntVar(&cfg.turns, "turns", 40, "conversation turns")
	fs.IntVar(&cfg.window, "window", 3000, "context window in `tokens` (small, so that compaction happens)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if cfg.session == "" {
		cfg.session = fmt.Sprintf("replicas-example-%d", time.Now().UnixNano())
	}
	if err := serve(ctx, cfg, stdout); err != nil {
		fmt.Fprintln(stderr, "replicas:", err)
		return 1
	}
	return 0
}

// replica is one process of the service: its store (and pool) and its
// wrapped model.
type replica struct {
	name  string
	store *pgstore.Store
	llm   *middleware.Model
	info  middleware.CallInfo
	sent  []llms.MessageContent // what the replica's model was sent last
}

func serve(ctx context.Context, cfg config, out io.Writer) error {
	c, err := compact.New(compact.WithModel("gpt-4o"), compact.WithContextWindow(cfg.window),
		compact.WithCustomSummarizer(scripted.NewSummarizer(scripted.Model{})))
	if err != nil {
		return err
	}
	var reps []*replica
	for _, name := range []string{"A", "B"} {
		s, err := pgstore.New(ctx, cfg.dsn, pgstore.WithMaxConns(2))
		if err != nil {
			return fmt.Errorf("replica %s: %w", name, err)
		}
		defer s.Close()
		r := &replica{name: name, store: s}
		r.llm = middleware.Wrap(chatModel{sent: &r.sent}, c, middleware.WithStore(s),
			middleware.WithObserver(func(i middleware.CallInfo) { r.info = i }))
		reps = append(reps, r)
	}
	fmt.Fprintf(out, "two replicas (A, B), each with its own pgstore pool, serve conversation %q; window %d tokens\n\n", cfg.session, cfg.window)
	return converse(ctx, cfg, reps, out)
}

// converse runs the turns, alternating replicas, and reports each call.
func converse(ctx context.Context, cfg config, reps []*replica, out io.Writer) error {
	cctx := middleware.WithSession(ctx, cfg.session)
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeSystem, "You are the order desk of a hardware shop.")}
	var prev []llms.MessageContent
	compactedBy := map[int64]string{}
	stable, compactions := 0, 0
	for t := 0; t < cfg.turns; t++ {
		r := reps[t%len(reps)]
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeHuman, question(t)))
		resp, err := r.llm.GenerateContent(cctx, msgs)
		if err != nil {
			return fmt.Errorf("turn %d on replica %s: %w", t+1, r.name, err)
		}
		sent := r.sent
		v, err := r.store.Version(ctx, cfg.session)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("turn %2d → replica %s: sent %5d tokens (%2d msgs), state version %d", t+1, r.name, r.info.SentTokens, r.info.SentMessages, v)
		switch {
		case len(r.info.Compactions) > 0:
			e := r.info.Compactions[0]
			compactedBy[v] = r.name
			compactions++
			line += fmt.Sprintf("  ✂ compacted here (%s, mode %s, %d summarizer call(s))", e.Reason, e.Mode, e.SummarizerCalls)
		case isPrefix(prev, sent):
			stable++
			if by, ok := compactedBy[v]; ok && by != r.name {
				line += fmt.Sprintf("  ↺ reused replica %s's compaction: same prefix", by)
			} else {
				line += "  = same prefix"
			}
		}
		fmt.Fprintln(out, line)
		prev = sent
		msgs = append(msgs, llms.TextParts(llms.ChatMessageTypeAI, resp.Choices[0].Content))
	}
	fmt.Fprintf(out, "\n%d turns, %d compactions, %d of %d later calls kept the previous call's prefix (prompt-cache hits)\n",
		cfg.turns, compactions, stable, cfg.turns-1)
	return nil
}

func isPrefix(prev, cur []llms.MessageContent) bool {
	if prev == nil || len(prev) > len(cur) {
		return false
	}
	for i := range prev {
		if !msg.Equal(prev[i], cur[i]) {
			return false
		}
	}
	return true
}

func question(t int) string {
	items := []string{"M6 bolts", "wood screws", "hinges", "drill bits", "wall plugs", "sandpaper"}
	return fmt.Sprintf("Order %d: how many %s are left, and can you reserve 40 for customer C-%03d?", 7100+t, items[t%len(items)], t)
}

// chatModel is the offline order desk: a deterministic, lengthy answer.
// It keeps what it was sent in *sent.
type chatModel struct{ sent *[]llms.MessageContent }

func (m chatModel) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	*m.sent = msgs
	var b strings.Builder
	if n := len(msgs); n > 0 {
		msg.WriteText(&b, msgs[n-1])
	}
	last := b.String()
	reply := fmt.Sprintf("Checked the stock for %q. %s", strings.SplitN(last, ":", 2)[0],
		strings.Repeat("Reserved 40 units, updated the ledger, and emailed the customer a confirmation. ", 4))
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: reply}}}, nil
}

func (m chatModel) Call(ctx context.Context, prompt string, opts ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, opts...)
}
