package retrieval

import (
	"context"
	"github.com/tmc/langchaingo/llms"
	"log/slog"
	"sync"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/store"
)

// Config configures a [Retriever]: memory's retrieval options with their
// defaults applied, and what it reads them with.
type Config struct {
	// Reserve is the most tokens a load reserves for retrieved messages;
	// 0 or less turns retrieval off.
	Reserve int
	// Searcher is the history's own search; nil: the Retriever ranks the
	// history with its own index ([Terms.Search]).
	Searcher store.Searcher
	// Semantic configures the semantic ranking (no embedder: none).
	Semantic SemanticConfig
	// Counter counts the block's tokens (the engine's counter).
	Counter *budget.TokenCounter
	// Format is how the block renders its messages.
	Format Format
	// Session is the conversation's id, for refs and logs.
	Session string
	// Log receives the failures of searches and of semantic ranking.
	Log *slog.Logger
}

// Retriever is the retrieval of one conversation held in a
// conversation.Log: it ranks the history against a load's input, sizes the
// room the load's engine call leaves for the retrieved messages ([Plan]),
// renders the retrieved block after the call ([Retriever.Add]) and counts
// what it did. The Log and its lock belong to the owner (memory.Memory):
// the Retriever reads the Log only holding the lock, which guards its word
// counts and stats too, and embeds and searches without it. The zero value
// retrieves nothing; [Retriever.Setup] turns it on.
type Retriever struct {
	cfg   Config
	win   *conversation.Log
	mu    sync.Locker
	terms Terms
	stats Stats
	// lineTok caches the tokens of a message's line in a block by position
	// (its text and ref do not change while the history stands; Reset
	// forgets them).
	lineTok map[int]int
	// Sem is the semantic ranking, with its cache of vectors.
	Sem Semantic
}

// The reasons a load retrieves nothing, counted in Stats.
const (
	skipEmpty    = "empty"
	skipTooLarge = "too large"
	skipError    = "error"
)

// quantum rounds the tokens a load reserves, so that loads of close
// inputs reserve the same room.
const quantum = 32

// Setup configures r over win, whose lock is mu. Call it once, before any
// other method; with cfg.Reserve <= 0 it leaves r off.
func (r *Retriever) Setup(cfg Config, win *conversation.Log, mu sync.Locker) {
	if cfg.Reserve <= 0 {
		return
	}
	r.cfg, r.win, r.mu = cfg, win, mu
	if cfg.Searcher == nil {
		r.terms.EnableIndex()
	}
	r.Sem.Configure(cfg.Semantic.withDefaults())
}

// Reserve returns the most tokens a load reserves (0: retrieval is off).
func (r *Retriever) Reserve() int { return r.cfg.Reserve }

// Stats returns the counts so far. Requires the lock.
func (r *Retriever) Stats() Stats { return r.stats }

// Reset forgets the word counts (and the index): the owner replaced the
// history's messages. Requires the lock.
func (r *Retriever) Reset() { r.terms.Reset(); r.lineTok = nil }

// Plan is one load's retrieval: the ranked hits, the room the engine call
// leaves for them, and why nothing is retrieved.
type Plan struct {
	// Reserve is the room, in tokens, the load's engine call leaves for
	// the retrieved messages (rounded up to a multiple of 32, at most the
	// Retriever's reserve); 0: none.
	Reserve int
	hits    []store.Hit
	skip    string // one of the skip reasons, "" when something may be retrieved
	semErr  bool   // the semantic ranking failed
	indexed bool   // ranked by the index, not the history's search
	ranked  bool   // a ranking ran (the history did not fit whole)
}

// Plan searches the history for the input query (of tok tokens) and sizes
// the room the engine call leaves for the retrieved messages: the turns
// among the best matches that a compacted context may have taken out,
// within the reserve. keptFrom, called holding the lock, returns the first
// position a compacted context keeps at least (the engine's
// compact.Compactor.KeptFrom), 0 when the history fits whole: then nothing
// is searched (no round trip to a database). The plan depends on the
// history and the input only, so that loading twice with the same input
// returns the same context. nil when retrieval is off.
func (r *Retriever) Plan(ctx context.Context, query string, tok int, keptFrom func() int) *Plan {
	if r.cfg.Reserve <= 0 {
		return nil
	}
	p := &Plan{}
	words := store.SearchTerms(query) // split once: the searches and the relevance gate take them
	switch {
	case len(words) == 0:
		p.skip = skipEmpty
		return p
	case tok > r.cfg.Reserve:
		p.skip = skipTooLarge
		return p
	}
	r.mu.Lock()
	cut := keptFrom()
	var hits []store.Hit
	var storeQuery string // the store's search walks no common word
	switch {
	case cut > 0 && r.cfg.Searcher == nil:
		hits, p.indexed = r.terms.Search(r.win, words, MaxHits), true
	case cut > 0:
		storeQuery = r.terms.RareQuery(r.win, words)
	}
	r.mu.Unlock()
	if cut == 0 {
		return p
	}
	p.ranked = true
	if !p.indexed && storeQuery != "" {
		var err error
		if hits, err = r.cfg.Searcher.Search(ctx, storeQuery, MaxHits); err != nil {
			r.cfg.Log.Warn("memory: retrieval search failed", "session", r.cfg.Session, "err", err)
			p.skip = skipError
			return p
		}
	}
	sem, err := r.Sem.Hits(ctx, query, cut, r.win, r.mu)
	if err != nil {
		r.cfg.Log.Warn("memory: semantic ranking failed; ranking lexically", "session", r.cfg.Session, "err", err)
		sem, p.semErr = nil, true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	p.hits = Fuse(r.terms.Relevant(r.win, words, hits), sem)
	older := make(map[int]string, len(p.hits))
	for _, h := range p.hits {
		for q := max(h.Pos-1, 0); q <= h.Pos+1 && q < cut; q++ {
			older[q] = r.ref(q) // the ref it will show
		}
	}
	if _, used := pick(r.win, r.preamble(), r.cost(older), p.hits, older, r.cfg.Reserve); used > 0 {
		p.Reserve = min(r.cfg.Reserve, (used+quantum-1)/quantum*quantum)
	}
	return p
}

// Add returns the retrieved block of plan p after its engine call: among
// its hits and the messages next to them, those out of the context now
// (out reports, holding the lock, whether the message at a position with
// the given ref is a compacted original), within p.Reserve; and how many
// messages it holds. It counts the load in the stats.
func (r *Retriever) Add(p *Plan, out func(pos int, ref string) bool) (block string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if p.skip == "" && p.Reserve > 0 {
		cand := make(map[int]string, 3*len(p.hits))
		for _, h := range p.hits {
			for q := max(h.Pos-1, 0); q <= h.Pos+1 && q < r.win.Len(); q++ {
				if ref := r.ref(q); out(q, ref) {
					cand[q] = ref
				}
			}
		}
		block, n, _ = r.block(p.hits, cand, p.Reserve)
	}
	r.stats.count(p, n)
	return block, n
}

// ref returns the ref of the message at position q.
func (r *Retriever) ref(q int) string { return compact.Ref(r.cfg.Session, r.win.ID(q)) }

// cost returns Block's cost function over the candidates cand (position
// -> ref): the tokens of the line of the message at a position, rendered
// and counted once per position (a line is rendered again only for the
// block itself).
func (r *Retriever) cost(cand map[int]string) func(q int) int {
	if r.lineTok == nil {
		r.lineTok = map[int]int{}
	}
	return func(q int) int {
		n, ok := r.lineTok[q]
		if !ok {
			n = r.cfg.Counter.Count(line(r.win, r.cfg.Format, q, cand[q]))
			r.lineTok[q] = n
		}
		return n
	}
}

// preamble returns the tokens of the block's preamble.
func (r *Retriever) preamble() int {
	return r.cfg.Counter.CountMessage(llms.TextParts(llms.ChatMessageTypeHuman, r.cfg.Format.Preamble))
}

// block renders the retrieved block of the hits among the candidates cand
// (position -> ref) within room tokens ([Block]).
func (r *Retriever) block(hits []store.Hit, cand map[int]string, room int) (string, int, int) {
	return Block(r.win, r.cfg.Format, r.preamble(), r.cost(cand), hits, cand, room)
}
