package memory

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	compact "github.com/agentcompact/compact"
	"github.com/agentcompact/compact/budget"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/memory/internal/chat"
	"github.com/agentcompact/compact/memory/internal/retrieval"
	"github.com/agentcompact/compact/store"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"
)

// ErrClosed is returned by the methods of a Memory after Close.
var ErrClosed = errors.New("memory: closed")

// Memory is a schema.Memory that compacts the conversation it remembers.
// Until the first compaction it behaves exactly like langchaingo's
// memory.ConversationBuffer with the same options; from then on
// LoadMemoryVariables returns the active context: the summary in force
// followed by the messages it does not cover (old tool outputs masked to
// their key facts). The original messages always stay in the history; the
// summary is never written into it. See the package documentation.
//
// A Memory is safe for concurrent use. Engine work (compaction) for its
// session runs one call at a time.
type Memory struct {
	c    *compact.Compactor
	cErr error
	// idErr is why the Memory cannot serve, or nil: the first invalid
	// option (options.badOption), else the session id refused
	// (conversation.CheckID).
	idErr error
	o     options
	hist  schema.ChatMessageHistory
	inc   store.IncrementalHistory
	// store and log are set once by New.
	store store.Store
	log   *slog.Logger
	// replica runs the conversation protocol over store, on conv, the
	// stored state's copy (turn.go); reader is the Memory as its adapter
	// for reads (no per-call state), and engineTurn for engine calls
	// (under engineMu).
	replica    *conversation.Replica
	conv       *conversation.Copy
	reader     turn
	engineTurn turn
	// ownHistory: the history is the store's own (store.HistoryStore), so
	// its state version can be read with it (store.VersionedHistory).
	ownHistory bool
	// The tokens of the prompt reserve (WithPromptReserve), set once by New.
	reserveTok int
	// scratch holds the engine calls' inputs made under engineMu
	// (conversation.Log.Input reuses its slices).
	scratch conversation.Input

	// The locks, in the order they are taken (a goroutine holding one
	// takes only those after it): engineMu; the conversation's lock
	// (conversation.Replica, per session id, held through a turn); the
	// copy's take lock (conversation.Copy, while a stored state is taken);
	// histMu; mu (which the retrieval shares: retrieval.Retriever reads
	// the window under it); last, the copy's own lock (conversation.Copy),
	// the worker pool's (pool.go: a submit under mu) or the semantic
	// cache's (retrieval.Semantic, under mu), each of which takes no other.
	engineMu sync.Mutex // one engine call (and its save) at a time
	histMu   sync.Mutex // calls into the history, one at a time

	// mu guards the fields below it, among them the retrieval's word
	// counts and stats and the background state (async.go).
	mu sync.Mutex
	// msgs are the history's messages as it returned them, and win the
	// same in the engine's form, with their ids, counts and the window the
	// engine is given (conversation.Log).
	msgs       []llms.ChatMessage
	win        *conversation.Log
	epoch      uint64
	epochKnown bool
	histNil    bool // the history's last Messages() result was nil
	sess       *compact.Session
	verified   []recordKey // chain records checked against the history
	seen       int         // history length of the last engine call
	// gen is incremented whenever the state or the history is replaced
	// (a take, a reset, a changed history): a step notices a replacement
	// during its engine call before recording the result into the Memory
	// (the Copy's own replacement count guards only its commit).
	gen        uint64
	view       cachedView
	recallRefs map[string]int // ref -> history position of a compacted original (recall.go)
	lossy      bool           // the history drops tool calls or tool messages
	closed     bool
	async      bool
	bg         background          // async.go
	rt         retrieval.Retriever // retrieve.go; its stats and word counts under mu
	// recallTaken: RecallTool was called (recallOffered).
	recallTaken atomic.Bool
}

var _ schema.Memory = (*Memory)(nil)

// New returns a Memory compacting with c. A nil c means a compactor with
// the engine's defaults (compact.New()); if that fails, the methods that need
// the engine return its error. Options are applied in order; nil options
// are ignored. An option out of its range, or a session id
// conversation.CheckID refuses, makes every method that reads or writes
// the conversation return that error (naming the option, wrapping
// compact.ErrInvalidOption); [NewChecked] returns it at once.
func New(c *compact.Compactor, opts ...Option) *Memory {
	o := defaultOptions()
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	m := &Memory{c: c, o: o, store: o.store, log: o.logger}
	m.reader.m = m
	m.idErr = o.err
	if err := conversation.CheckID(o.sessionID); err != nil && m.idErr == nil {
		m.idErr = fmt.Errorf("memory: %w", err)
	}
	if m.c == nil {
		m.c, m.cErr = compact.New()
		if m.cErr != nil {
			m.cErr = fmt.Errorf("memory: default compactor: %w", m.cErr)
		}
	}
	if m.store == nil {
		m.store = store.NewMemory()
	}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	m.conv = conversation.NewCopy(o.sessionID)
	m.replica = conversation.NewReplica(m.store, conversation.WithLeaseTiming(o.lease), conversation.WithBackoff(o.backoff))
	m.hist = o.history
	if m.hist == nil {
		if hs, ok := m.store.(store.HistoryStore); ok {
			m.hist, m.ownHistory = hs.History(o.sessionID), true
		}
	}
	if m.hist == nil {
		m.hist = store.NewChatHistory()
	}
	m.inc, _ = m.hist.(store.IncrementalHistory)
	m.sess = compact.NewSession(o.sessionID)
	m.win = conversation.NewLog(o.minWindow)
	m.setupReserve()
	switch {
	case o.pool != nil:
		m.bg.pool, m.async = o.pool, true
	case o.workers > 0:
		m.bg.pool, m.bg.own, m.async = NewPool(o.workers), true, true
	}
	m.setupRetrieval()
	return m
}

// NewChecked is [New] that returns the Memory's configuration error instead
// of deferring it to the first call: an option out of its range (an error
// wrapping compact.ErrInvalidOption and naming the option, in the words of
// compact.New), a session id conversation.CheckID refuses, or the failure
// of the default compactor when c is nil. On error the Memory is nil.
func NewChecked(c *compact.Compactor, opts ...Option) (*Memory, error) {
	m := New(c, opts...)
	if err := m.Err(); err != nil {
		_ = m.Close()
		return nil, err
	}
	return m, nil
}

// Err returns why the Memory cannot serve (see [NewChecked]), or nil.
func (m *Memory) Err() error {
	if m.idErr != nil {
		return m.idErr
	}
	return m.cErr
}

// SessionID returns the id of the Memory's session.
func (m *Memory) SessionID() string { return m.o.sessionID }

// ChatHistory returns the history holding the original messages.
func (m *Memory) ChatHistory() schema.ChatMessageHistory { return m.hist }

// GetMemoryKey returns the memory key (default "history").
func (m *Memory) GetMemoryKey(context.Context) string { return m.o.memoryKey }

// MemoryVariables returns the one variable the Memory loads: its memory key.
func (m *Memory) MemoryVariables(context.Context) []string { return []string{m.o.memoryKey} }

// LoadMemoryVariables returns the active context under the memory key: a
// buffer string (human and AI prefixes, see the package documentation for
// the summary line), or with WithReturnMessages a new []llms.ChatMessage
// owned by the caller.
//
// It budgets for the input it is given, picked as SaveContext picks it (the
// input key's value, or the only value; inputs without such a string mean
// no input): in synchronous mode (the default) the engine is given the
// history plus that input as the latest human message, with the id it will
// have once SaveContext writes it, so it compacts the history around it
// when the trigger says so (when the messages it pins might not fit beside
// the input, its tokens are reserved instead, which the engine never cuts);
// the context returned plus the input then fit the engine's budget less the
// prompt reserve ([WithPromptReserve]), and a chains.NewConversation prompt
// fits the window less the reserved output (with human and AI prefixes of
// at most two tokens each, like the defaults). The input is not written to
// the history, and nothing about the stored state changes but what a
// compaction changes: loading twice with the same input returns the same
// context. An input that cannot fit returns an error wrapping
// [ErrInputTooLarge] (with its tokens and the budget) and no context: when,
// with the reply priming, the prompt reserve and the history's leading
// system messages, it exceeds the budget (checked before the engine runs),
// or when the engine cannot fit beside it what it keeps (a summary, the
// task and the latest turn cut to their head and tail: the engine's
// compact.ErrBudgetTooSmall, wrapped too); either way nothing changes.
//
// In async mode ([WithAsync]) it never compacts: it returns the latest
// background result plus the messages saved since, and does not make room
// for the input (background compactions aim for the engine's reset ratio,
// which leaves the rest of the budget for it); an input over the budget
// alone is still an error wrapping ErrInputTooLarge.
func (m *Memory) LoadMemoryVariables(ctx context.Context, inputs map[string]any) (map[string]any, error) {
	ctx, err := m.begin(ctx)
	if err != nil {
		return nil, err
	}
	var pend *pendingInput
	if v, _, _ := pickValue(inputs, m.o.inputKey); m.c != nil {
		if in, ok := v.(string); ok {
			pend = m.newPending(in)
		}
	}
	msgs, text, err := m.context(ctx, pend)
	if err != nil {
		return nil, err
	}
	msgs, text = m.addRetrieved(pend, msgs, text) // retrieve.go
	if m.o.returnMessages {
		return map[string]any{m.o.memoryKey: msgs}, nil
	}
	return map[string]any{m.o.memoryKey: text}, nil
}

// context returns the active context: in messages mode the messages (a new
// slice; nil when the history's Messages returned nil, as
// ConversationBuffer would), else the buffer string. pend is the input to
// budget for, or nil.
func (m *Memory) context(ctx context.Context, pend *pendingInput) ([]llms.ChatMessage, string, error) {
	m.mu.Lock()
	async := m.async
	m.mu.Unlock()
	if async {
		if err := m.syncForRead(ctx); err != nil {
			return nil, "", err
		}
		if pend != nil {
			m.mu.Lock()
			err := m.checkInputLocked(pend)
			m.mu.Unlock()
			if err != nil {
				return nil, "", err
			}
		}
	} else {
		m.engineMu.Lock()
		_, err := m.runEngine(ctx, "", pend)
		m.engineMu.Unlock()
		if err != nil {
			return nil, "", err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.view.valid || m.view.n > len(m.msgs) {
		m.view = m.stateViewLocked(ctx)
	}
	v := m.view
	if async && len(m.msgs) > v.n {
		m.scheduleLocked()
	}
	tail := append([]llms.ChatMessage(nil), m.msgs[v.n:]...)
	if m.o.returnMessages {
		if len(v.msgs)+len(tail) == 0 && m.inc == nil && m.histNil {
			return nil, "", nil
		}
		out := make([]llms.ChatMessage, 0, len(v.msgs)+len(tail))
		return append(append(out, v.msgs...), tail...), "", nil
	}
	prefixes := [2]string{m.o.humanPrefix, m.o.aiPrefix}
	if !v.textOK || v.prefixes != prefixes {
		text, err := chat.Render(v.msgs, v.summary, m.o.humanPrefix, m.o.aiPrefix)
		if err != nil {
			return nil, "", fmt.Errorf("memory: render history: %w", err)
		}
		v.text, v.textBuf, v.textOK, v.prefixes = text, nil, true, prefixes
		m.view = v
	}
	if len(tail) == 0 {
		return nil, v.text, nil
	}
	text, err := chat.Render(tail, -1, m.o.humanPrefix, m.o.aiPrefix)
	if err != nil {
		return nil, "", fmt.Errorf("memory: render history: %w", err)
	}
	return nil, chat.JoinLines(v.text, text), nil
}

// SaveContext records one turn in the history: the human input, the tool
// rounds of any intermediate steps (see [WithToolRounds]), then the AI
// output. The input and output are chosen by langchaingo's rules (and
// errors, wrapping its memory.ErrInvalidInputValues): the value of the input
// (output) key when one is set, else the only value; values must be
// strings. []schema.AgentStep values never count as outputs. Nothing is
// written when either value is invalid (ConversationBuffer writes the human
// message before checking the output). In async mode a background
// compaction is scheduled.
func (m *Memory) SaveContext(ctx context.Context, inputs, outputs map[string]any) error {
	ctx, err := m.begin(ctx)
	if err != nil {
		return err
	}
	in, err := sideValue("inputs", "WithInputKey", inputs, m.o.inputKey)
	if err != nil {
		return err
	}
	steps, rest := splitSteps(outputs)
	if m.o.outputKey != "" {
		rest = outputs
	}
	out, err := sideValue("outputs", "WithOutputKey", rest, m.o.outputKey)
	if err != nil {
		return err
	}
	if !m.o.toolRounds {
		steps = nil
	}
	if err := m.write(ctx, in, steps, out); err != nil {
		return err
	}
	m.mu.Lock()
	m.scheduleLocked() // a no-op in synchronous mode
	m.mu.Unlock()
	return nil
}

// write appends one turn to the history.
func (m *Memory) write(ctx context.Context, in string, steps []schema.AgentStep, out string) error {
	m.histMu.Lock()
	defer m.histMu.Unlock()
	rounds := toolRounds(steps, in+"\x00"+out)
	if m.inc != nil {
		msgs := make([]llms.ChatMessage, 0, len(rounds)+2)
		msgs = append(msgs, llms.HumanChatMessage{Content: in})
		msgs = append(msgs, rounds...)
		msgs = append(msgs, llms.AIChatMessage{Content: out})
		if err := m.inc.AddMessages(ctx, msgs); err != nil {
			return fmt.Errorf("memory: save turn: %w", err)
		}
		return nil
	}
	if err := m.hist.AddUserMessage(ctx, in); err != nil {
		return err
	}
	if len(rounds) > 0 {
		m.mu.Lock()
		lossy := m.lossy
		m.mu.Unlock()
		if !lossy {
			for _, r := range rounds {
				if err := m.hist.AddMessage(ctx, r); err != nil {
					return fmt.Errorf("memory: save tool round: %w", err)
				}
			}
			kept, err := m.keptTail(ctx, rounds)
			if err != nil {
				return err
			}
			if !kept {
				m.log.Warn("memory: the chat history does not keep tool calls or tool messages; tool rounds are recorded as text",
					"session", m.o.sessionID)
				m.mu.Lock()
				m.lossy, lossy = true, true
				m.mu.Unlock()
			}
		}
		if lossy {
			if err := m.hist.AddAIMessage(ctx, toolRoundsText(steps)); err != nil {
				return err
			}
		}
	}
	return m.hist.AddAIMessage(ctx, out)
}

// keptTail reports whether the history now ends with the messages written.
func (m *Memory) keptTail(ctx context.Context, written []llms.ChatMessage) (bool, error) {
	msgs, err := m.hist.Messages(ctx)
	if err != nil {
		return false, fmt.Errorf("memory: read back tool round: %w", err)
	}
	msgs = chat.WithoutNil(msgs)
	if len(msgs) < len(written) {
		return false, nil
	}
	tail := msgs[len(msgs)-len(written):]
	for i := range written {
		if !chat.Same(tail[i], written[i]) {
			return false, nil
		}
	}
	return true, nil
}

// Clear clears the history (as ConversationBuffer does) and the compaction
// state, and saves the cleared state. It waits for a running compaction.
func (m *Memory) Clear(ctx context.Context) error {
	ctx, err := m.begin(ctx)
	if err != nil {
		return err
	}
	m.engineMu.Lock()
	defer m.engineMu.Unlock()
	m.histMu.Lock()
	err = m.hist.Clear(ctx)
	m.histMu.Unlock()
	if err != nil {
		return err
	}
	m.mu.Lock()
	m.msgs = nil
	m.win.Clear()
	m.epochKnown = false
	m.resetLocked()
	m.mu.Unlock()
	if err := m.replica.Turn(ctx, m.conv, &turn{m: m, save: true, clear: true}); err != nil {
		return fmt.Errorf("memory: clear state of session %s: %w", idtext.Quote(m.o.sessionID), err)
	}
	return nil
}

// Compact compacts the conversation now, whatever the trigger says (the
// "/summarize" command): it drops and summarizes towards the engine's reset
// ratio. It blocks until done, also in async mode, and returns an error if
// the engine fails or the state cannot be saved.
func (m *Memory) Compact(ctx context.Context) error {
	ctx, err := m.begin(ctx)
	if err != nil {
		return err
	}
	m.engineMu.Lock()
	defer m.engineMu.Unlock()
	_, err = m.runEngine(ctx, compact.ReasonManual, nil)
	return err
}

// Summaries returns the session's summary chain, oldest first (a copy). The
// records' OriginalMessageIDs are ids in the whole history, as
// compact.MessageIDs computes them over the history's messages.
func (m *Memory) Summaries(ctx context.Context) ([]compact.SummaryRecord, error) {
	ctx = orBackground(ctx)
	recs, err := m.Records(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]compact.SummaryRecord, len(recs))
	for i, r := range recs {
		out[i] = r.SummaryRecord
	}
	return out, nil
}

// Records returns the summary chain with its audit data (positions of the
// originals each record condensed, their SHA-256, the summarized-up-to
// position), oldest first (a copy).
func (m *Memory) Records(ctx context.Context) ([]store.Record, error) {
	ctx = orBackground(ctx)
	if err := m.syncForRead(ctx); err != nil {
		return nil, err
	}
	return m.conv.Records(), nil
}

// Verify checks every record of the summary chain against what the history
// holds now: the originals each record condensed must still be there, with
// the recorded SHA-256. It reads the history afresh and changes nothing; an
// error wraps ErrIntegrity (or reports why the history could not be read).
func (m *Memory) Verify(ctx context.Context) error {
	ctx = orBackground(ctx)
	loaded := m.conv.Synced()
	chain := m.conv.Records()
	if !loaded {
		st, err := m.store.Load(ctx, m.o.sessionID)
		if err != nil {
			return fmt.Errorf("memory: load state of session %s: %w", idtext.Quote(m.o.sessionID), err)
		}
		chain = st.Chain
	}
	m.histMu.Lock()
	var msgs []llms.ChatMessage
	var err error
	if m.inc != nil {
		msgs, _, err = m.inc.MessagesSince(ctx, 0)
	} else {
		msgs, err = m.hist.Messages(ctx)
	}
	m.histMu.Unlock()
	if err != nil {
		return fmt.Errorf("memory: read history: %w", err)
	}
	msgs = chat.WithoutNil(msgs)
	at := func(i int) llms.ChatMessage { return msgs[i] }
	for _, r := range chain {
		if err := verifyRecord(r, len(msgs), at); err != nil {
			return err
		}
	}
	return nil
}

// Contents returns the engine's form of a history's messages, as a Memory
// gives them to the engine (see the package documentation); nil messages
// are skipped. compact.MessageIDs(Contents(history)) yields the ids that
// [store.Record].OriginalMessageIDs and Summaries use. msgs is not modified.
func Contents(msgs []llms.ChatMessage) []llms.MessageContent {
	msgs = chat.WithoutNil(msgs)
	out := make([]llms.MessageContent, len(msgs))
	for i, cm := range msgs {
		out[i] = chat.ToContent(cm, func(id string) string { return chat.ToolName(msgs[:i], id) })
	}
	return out
}

// Stats returns the session's figures: messages in the history and covered
// by the summary chain, masked tool outputs, summaries, compactions,
// fallbacks and summarizer calls, and tokens of the whole history
// (TokensOriginal) against those of the active context (TokensActive, as of
// the latest engine call plus the messages saved since). It does not run
// the engine; its cost grows with the history (token counts are cached).
func (m *Memory) Stats(ctx context.Context) (compact.Stats, error) {
	ctx = orBackground(ctx)
	if err := m.syncForRead(ctx); err != nil {
		return compact.Stats{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	st := m.sess.Stats()
	n := len(m.msgs)
	st.MessagesTotal = n
	st.Summaries = m.conv.Len()
	var counter *budget.TokenCounter
	if m.c != nil {
		counter = m.c.Counter()
	}
	original := 0
	for i := range n {
		original += m.win.Tokens(counter, i)
	}
	if n > 0 {
		original += budget.ReplyPriming
	}
	active := original
	if v := m.view; v.valid && v.tokens >= 0 && v.n <= n {
		active = v.tokens
		if v.n == 0 && n > 0 {
			active += budget.ReplyPriming
		}
		for i := v.n; i < n; i++ {
			active += m.win.Tokens(counter, i)
		}
	}
	return st.WithTokens(original, active), nil
}

// syncForRead brings the Memory up to date without running the engine:
// the stored state at first use or when the store holds a version it has
// not taken (another replica wrote), so reads show the stored chain and
// stats, not a stale copy; and the history (read with the version, or by
// Take; see turn.go).
func (m *Memory) syncForRead(ctx context.Context) error {
	if m.idErr != nil {
		return m.idErr
	}
	if err := m.replica.Sync(ctx, m.conv, &m.reader); err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	return nil
}

// isClosed reports whether Close was called.
func (m *Memory) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// begin returns ctx, or context.Background() for a nil ctx (tolerated as
// langchaingo's own memories tolerate it), and why the Memory cannot serve
// a call that reads or writes the conversation: ErrClosed after Close, else
// its configuration error.
func (m *Memory) begin(ctx context.Context) (context.Context, error) {
	if m.isClosed() {
		return orBackground(ctx), ErrClosed
	}
	return orBackground(ctx), m.idErr
}

// orBackground returns ctx, or context.Background() for a nil ctx.
func orBackground(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}
