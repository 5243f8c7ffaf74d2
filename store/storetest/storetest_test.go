package storetest_test

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/store/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
)

const envBroken = "COMPACT_STORETEST_BROKEN"

// breakages are in-memory stores broken in one way each, with the subtests
// of the harness that must catch them.
var breakages = map[string][]string{
	"no-compare-and-swap":      {"State/CompareAndSwap", "State/ConcurrentWriters"},
	"load-aliases":             {"State/Copies"},
	"save-retains":             {"State/Copies"},
	"chain-from-ignored":       {"State/Chain"},
	"chain-from-unchecked":     {"State/Chain"},
	"ids-truncated":            {"State/Isolation", "History/Isolation", "Originals/Isolation"},
	"ids-case-folded":          {"State/Isolation", "History/Isolation", "Originals/Isolation"},
	"cancel-ignored":           {"State/Cancelled", "History/Cancelled", "Originals/Cancelled"},
	"epoch-moves-on-append":    {"History/Epoch"},
	"epoch-reused":             {"History/Epoch"},
	"turns-split":              {"History/ConcurrentTurns"},
	"history-shared":           {"History/Isolation"},
	"invalid-utf8-dropped":     {"History/InvalidUTF8", "State/InvalidUTF8", "Originals/InvalidUTF8"},
	"tool-calls-dropped":       {"History/FullFidelity", "History/Large"},
	"put-overwrites":           {"Originals/Idempotent"},
	"put-not-atomic":           {"Originals/InvalidRef", "Originals/Cancelled"},
	"search-case-sensitive":    {"Originals/Search", "Originals/SearchLimits"},
	"search-pattern":           {"Originals/Search"},
	"search-all-sessions":      {"Originals/Isolation"},
	"search-limit-ignored":     {"Originals/SearchLimits"},
	"search-sorted-by-ref":     {"Originals/Idempotent", "Originals/Search", "Originals/SearchLimits"},
	"search-empty-matches-all": {"Originals/SearchLimits"},
}

// TestHarnessCatchesBrokenStores runs the harness on each broken store in a
// child process and checks that the subtests meant to catch it fail, and
// that it passes on the store unbroken.
func TestHarnessCatchesBrokenStores(t *testing.T) {
	if os.Getenv(envBroken) != "" {
		t.Skip("in a child process")
	}
	run := func(t *testing.T, name string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenChild$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), envBroken+"="+name)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	t.Run("unbroken", func(t *testing.T) {
		out, err := run(t, "none")
		require.NoError(t, err, out)
		require.Contains(t, out, "--- PASS: TestBrokenChild/Originals/Search")
	})
	for name, catchers := range breakages {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out, err := run(t, name)
			require.Error(t, err, "the harness passes a store with %s", name)
			var failed []string
			for _, line := range strings.Split(out, "\n") {
				if f, ok := strings.CutPrefix(strings.TrimSpace(line), "--- FAIL: TestBrokenChild/"); ok {
					failed = append(failed, strings.Fields(f)[0])
				}
			}
			for _, c := range catchers {
				assert.Contains(t, failed, c, "%s is not caught by %s", name, c)
			}
			assert.NotContains(t, out, "panic:", out)
			t.Logf("caught by %v", failed)
		})
	}
}

// TestBrokenChild runs the harness on the broken store named by envBroken.
func TestBrokenChild(t *testing.T) {
	name := os.Getenv(envBroken)
	if name == "" {
		t.Skip("only run as a child process")
	}
	storetest.Run(t, func(*testing.T) store.Store { return newBroken(name) })
}

// broken is an in-memory store broken in the way its name says.
type broken struct {
	*store.Memory
	name string

	mu    sync.Mutex
	saved map[string]store.State // load-aliases, save-retains
	hists map[string]*brokenHistory
	origs map[string]map[string]store.Original // put-overwrites
	order map[string][]string
}

func newBroken(name string) *broken {
	return &broken{Memory: store.NewMemory(), name: name, saved: map[string]store.State{},
		hists: map[string]*brokenHistory{}, origs: map[string]map[string]store.Original{}, order: map[string][]string{}}
}

func (b *broken) id(id string) string {
	switch b.name {
	case "ids-truncated":
		if len(id) > 40 {
			return id[:40]
		}
	case "ids-case-folded":
		return strings.ToLower(id)
	}
	return id
}

func (b *broken) ctx(ctx context.Context) context.Context {
	if b.name == "cancel-ignored" {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

func (b *broken) Load(ctx context.Context, id string) (store.State, error) {
	st, err := b.Memory.Load(b.ctx(ctx), b.id(id))
	st.SessionID = id
	if b.name == "save-retains" && err == nil {
		if r, ok := b.loadRetained(id); ok && r.Version == st.Version {
			return r.Clone(), nil
		}
	}
	if b.name == "load-aliases" && err == nil && st.Version > 0 {
		b.mu.Lock()
		defer b.mu.Unlock()
		if s, ok := b.saved[id]; ok && s.Version == st.Version {
			return s, nil
		}
		b.saved[id] = st
	}
	return st, err
}

func (b *broken) Save(ctx context.Context, st store.State, chainFrom int) (int64, error) {
	in := st
	in.SessionID = b.id(st.SessionID)
	switch b.name {
	case "no-compare-and-swap":
		v, err := b.Memory.Version(ctx, in.SessionID)
		if err != nil {
			return 0, err
		}
		in.Version = v
	case "chain-from-ignored":
		chainFrom = 0
	case "chain-from-unchecked":
		cur, err := b.Memory.Load(ctx, in.SessionID)
		if err != nil {
			return 0, err
		}
		chainFrom = max(0, min(chainFrom, len(cur.Chain), len(in.Chain)))
	}
	if b.name == "invalid-utf8-dropped" {
		in.Chain = store.CloneRecords(in.Chain)
		for i := range in.Chain {
			in.Chain[i].Summary = strings.ToValidUTF8(in.Chain[i].Summary, "")
		}
	}
	v, err := b.Memory.Save(b.ctx(ctx), in, chainFrom)
	if err == nil && b.name == "save-retains" {
		b.mu.Lock()
		st.Version = v
		b.saved[st.SessionID] = st
		b.mu.Unlock()
	}
	return v, err
}

func (b *broken) loadRetained(id string) (store.State, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st, ok := b.saved[id]
	return st, ok
}

func (b *broken) Version(ctx context.Context, id string) (int64, error) {
	return b.Memory.Version(b.ctx(ctx), b.id(id))
}

func (b *broken) History(id string) store.IncrementalHistory {
	if b.name == "history-shared" {
		id = "one history"
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	h, ok := b.hists[b.id(id)]
	if !ok {
		h = &brokenHistory{b: b, h: b.Memory.History(b.id(id)), epoch: uint64(len(b.hists)) * 1000}
		b.hists[b.id(id)] = h
	}
	return h
}

type brokenHistory struct {
	b     *broken
	h     store.IncrementalHistory
	epoch uint64 // epoch-reused: counts down and back
	sets  int
}

func (h *brokenHistory) Messages(ctx context.Context) ([]llms.ChatMessage, error) {
	msgs, _, err := h.MessagesSince(ctx, 0)
	if msgs == nil && err == nil {
		msgs = []llms.ChatMessage{}
	}
	return msgs, err
}

func (h *brokenHistory) MessagesSince(ctx context.Context, from int) ([]llms.ChatMessage, uint64, error) {
	msgs, epoch, err := h.h.MessagesSince(h.b.ctx(ctx), from)
	switch h.b.name {
	case "epoch-moves-on-append":
		epoch += uint64(from + len(msgs))
	case "epoch-reused":
		epoch = uint64(h.sets % 2)
	}
	return msgs, epoch, err
}

func (h *brokenHistory) AddMessages(ctx context.Context, msgs []llms.ChatMessage) error {
	ctx = h.b.ctx(ctx)
	switch h.b.name {
	case "turns-split":
		for _, m := range msgs {
			if err := h.h.AddMessages(ctx, []llms.ChatMessage{m}); err != nil {
				return err
			}
			time.Sleep(200 * time.Microsecond)
		}
		return nil
	case "invalid-utf8-dropped", "tool-calls-dropped":
		out := make([]llms.ChatMessage, 0, len(msgs))
		for _, m := range msgs {
			if store.IsNilMessage(m) {
				continue
			}
			w := store.ToWire(m)
			if h.b.name == "tool-calls-dropped" {
				w.ToolCalls = nil
			} else {
				w.Content = strings.ToValidUTF8(w.Content, "")
			}
			out = append(out, store.FromWire(w))
		}
		msgs = out
	}
	return h.h.AddMessages(ctx, msgs)
}

func (h *brokenHistory) AddMessage(ctx context.Context, m llms.ChatMessage) error {
	return h.AddMessages(ctx, []llms.ChatMessage{m})
}

func (h *brokenHistory) AddUserMessage(ctx context.Context, text string) error {
	return h.AddMessage(ctx, llms.HumanChatMessage{Content: text})
}

func (h *brokenHistory) AddAIMessage(ctx context.Context, text string) error {
	return h.AddMessage(ctx, llms.AIChatMessage{Content: text})
}

func (h *brokenHistory) Clear(ctx context.Context) error {
	h.sets++
	return h.h.Clear(h.b.ctx(ctx))
}

func (h *brokenHistory) SetMessages(ctx context.Context, msgs []llms.ChatMessage) error {
	h.sets++
	return h.h.SetMessages(h.b.ctx(ctx), msgs)
}

// The broken stores keep originals themselves (correctly unless broken).
func (b *broken) PutOriginals(ctx context.Context, id string, list []store.Original) error {
	ctx = b.ctx(ctx)
	id = b.id(id)
	if b.name != "put-not-atomic" {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := store.CheckOriginals(id, list); err != nil {
			return err
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	m := b.origs[id]
	if m == nil {
		m = map[string]store.Original{}
		b.origs[id] = m
	}
	for _, o := range list {
		if !store.ValidRef(o.Ref) {
			return store.CheckOriginals(id, list) // put-not-atomic: the ones before stay
		}
		if b.name == "invalid-utf8-dropped" {
			o.Text = strings.ToValidUTF8(o.Text, "")
		}
		if _, ok := m[o.Ref]; !ok {
			b.order[id] = append(b.order[id], o.Ref)
		} else if b.name != "put-overwrites" {
			continue
		}
		m[o.Ref] = o
	}
	return ctx.Err()
}

func (b *broken) Original(ctx context.Context, id, ref string) (store.Original, error) {
	if err := b.ctx(ctx).Err(); err != nil {
		return store.Original{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if o, ok := b.origs[b.id(id)][ref]; ok {
		return o, nil
	}
	return store.Original{}, store.ErrNotFound
}

func (b *broken) SearchOriginals(ctx context.Context, id, query string, limit int) ([]store.Original, error) {
	if err := b.ctx(ctx).Err(); err != nil {
		return nil, err
	}
	if (query == "" && b.name != "search-empty-matches-all") || limit <= 0 {
		return nil, nil
	}
	match := func(text string) bool { return strings.Contains(store.FoldCase(text), store.FoldCase(query)) }
	switch b.name {
	case "search-case-sensitive":
		match = func(text string) bool { return strings.Contains(text, query) }
	case "search-pattern":
		re, err := regexp.Compile("(?i)" + query)
		if err != nil {
			return nil, nil
		}
		match = re.MatchString
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	sessions := []string{b.id(id)}
	if b.name == "search-all-sessions" {
		sessions = sessions[:0]
		for sid := range b.order {
			sessions = append(sessions, sid)
		}
		sort.Strings(sessions)
	}
	var out []store.Original
	for _, sid := range sessions {
		for _, ref := range b.order[sid] {
			if o := b.origs[sid][ref]; match(o.Text) {
				out = append(out, o)
			}
		}
	}
	if b.name == "search-sorted-by-ref" {
		sort.SliceStable(out, func(i, j int) bool { return out[i].Ref < out[j].Ref })
	}
	if b.name != "search-limit-ignored" && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
