package middleware

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/agentcompact/compact"
	"github.com/agentcompact/compact/conversation"
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/agentcompact/compact/recall"
	"github.com/agentcompact/compact/store"
	"github.com/agentcompact/compact/summary"
	"github.com/tmc/langchaingo/llms"
)

// Model is an llms.Model that compacts the context of every call before
// passing it to the model it wraps. Build one with [Wrap]. A Model is safe
// for concurrent use by many goroutines and conversations: each
// conversation's state is a [compact.Session] in a bounded table, and calls
// on one session are serialized inside the engine while they compact (not
// while the wrapped model runs).
type Model struct {
	next  llms.Model
	c     *compact.Compactor
	o     options
	table *table
	tools toolCounter
	// replica runs the shared-state protocol (WithStore), or is nil.
	replica *conversation.Replica
	// err is why every call fails (WrapChecked), or nil.
	err error
}

var (
	_ llms.Model          = (*Model)(nil)
	_ llms.ReasoningModel = (*Model)(nil)
)

// Wrap returns next wrapped with compaction by c, in the shape of
// langchaingo's llms/cache wrapper. Every GenerateContent call, including
// each iteration of an agent's tool loop, goes through c.Compact with the
// conversation's session (see [WithSession]), then to next. c may be shared
// by several Models; with a nil next or c every call fails with an error
// wrapping [ErrNotConfigured] that names which, and with an option out of
// its range with an error wrapping compact.ErrInvalidOption that names the
// option: [WrapChecked] returns either at once. Options are described at
// each With function; nil options are ignored.
func Wrap(next llms.Model, c *compact.Compactor, opts ...Option) *Model {
	o := defaultOptions()
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	m := &Model{next: next, c: c, o: o, table: newTable(o.maxSessions, o.ttl, o.now, o.maxOriginalBytes)}
	if o.store != nil {
		m.replica = conversation.NewReplica(o.store, conversation.WithLeaseTiming(o.lease), conversation.WithBackoff(o.backoff))
	}
	switch {
	case next == nil:
		m.err = fmt.Errorf("%w: the model to wrap is nil", ErrNotConfigured)
	case c == nil:
		m.err = fmt.Errorf("%w: the compactor is nil (build one with compact.New)", ErrNotConfigured)
	default:
		m.err = o.err
	}
	return m
}

// WrapChecked is [Wrap] that returns the configuration error instead of
// deferring it to the first call: a nil model or compactor (wrapping
// [ErrNotConfigured]) or an option out of its range (wrapping
// compact.ErrInvalidOption and naming the option, in the words of
// compact.New). On error the Model is nil.
func WrapChecked(next llms.Model, c *compact.Compactor, opts ...Option) (*Model, error) {
	m := Wrap(next, c, opts...)
	if m.err != nil {
		return nil, m.err
	}
	return m, nil
}

// Err returns why every call of the Model fails (see [WrapChecked]), or
// nil.
func (m *Model) Err() error {
	if m == nil {
		return ErrNotConfigured
	}
	return m.err
}

// Unwrap returns the wrapped model.
func (m *Model) Unwrap() llms.Model { return m.next }

// Compactor returns the compactor the Model uses.
func (m *Model) Compactor() *compact.Compactor { return m.c }

// SupportsReasoning forwards to the wrapped model when it implements
// [llms.ReasoningModel], and reports false otherwise.
func (m *Model) SupportsReasoning() bool {
	if r, ok := m.next.(llms.ReasoningModel); ok {
		return r.SupportsReasoning()
	}
	return false
}

// Call generates a reply to a single text prompt through GenerateContent,
// as llms.GenerateFromSinglePrompt does (so the prompt is compacted too).
//
// Deprecated: as in langchaingo, use GenerateContent or
// llms.GenerateFromSinglePrompt; Call exists to satisfy llms.Model.
func (m *Model) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

// GenerateContent compacts messages and sends the result to the wrapped
// model, then returns its response unchanged.
//
// The conversation is the one set on ctx by [WithSession]; an id
// [CheckSessionID] refuses fails the call with an error wrapping
// [ErrInvalidSession], and nothing is sent. Without one the conversation
// is keyed by a hash of the leading system messages and the first user
// message (for a text agent, the prompt up to its scratchpad), in a
// namespace of its own that stays in this process (never in a store), and
// a session whose summary covers none of the messages is treated as
// another conversation with the same opening and restarted empty.
//
// Compaction is the engine's: below the trigger ratio the context is the
// session's current view plus the new messages (prefix-stable, I7); above
// it, old tool outputs are masked with their extractors, old rounds are
// summarized, and so on (see package compact). Text-agent prompts are
// compacted step by step (see the package documentation).
//
// When the wrapped model fails with a context-overflow error (see
// [WithOverflowDetector]), the messages are compacted at the emergency level
// ([compact.ReasonOverflow]) and the call is retried once. After a
// successful call, the provider's prompt-token count calibrates the session
// ([WithCalibration]).
//
// Calls made by a summarizer (marked with [summary.MarkSummarizerCall], as
// the engine's LLM summarizer does), when the summarizer model is itself
// wrapped, pass through uncompacted.
//
// messages is never modified; an empty list is an error wrapping
// [compact.ErrInvalidInput], and nothing is sent. Errors of the wrapped model are returned as
// they are; a compaction error (the context cannot fit even after the last
// resort, [compact.ErrBudgetTooSmall]; a canceled ctx) is returned wrapped,
// and nothing is sent.
func (m *Model) GenerateContent(ctx context.Context, messages []llms.MessageContent, options ...llms.CallOption) (*llms.ContentResponse, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if summary.IsSummarizerCall(ctx) && m.next != nil {
		// The LLM summarizer's own call through a wrapped model: its input is
		// already capped; compacting it would recurse.
		return m.next.GenerateContent(ctx, messages, options...)
	}
	start := time.Now()
	info := CallInfo{Messages: len(messages)}
	var resp *llms.ContentResponse
	p, err := m.prepare(ctx, messages, options, &info)
	if err == nil {
		resp, err = m.generate(ctx, p, &info, options)
	}
	m.finish(&info, start, err)
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// streamer is the streaming interface langchaingo's llmtest probes for.
type streamer interface {
	GenerateContentStream(ctx context.Context, messages []llms.MessageContent, options ...llms.CallOption) (<-chan llms.ContentResponse, error)
}

// GenerateContentStream compacts messages as GenerateContent does, then
// streams the wrapped model's reply: through its own GenerateContentStream
// when it has one (the overflow retry applies to an error returned before
// the stream starts), otherwise by calling its GenerateContent and
// delivering the whole response as one chunk. The channel is closed after
// the last chunk.
func (m *Model) GenerateContentStream(ctx context.Context, messages []llms.MessageContent, options ...llms.CallOption) (<-chan llms.ContentResponse, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	start := time.Now()
	info := CallInfo{Messages: len(messages)}
	var ch <-chan llms.ContentResponse
	p, err := m.prepare(ctx, messages, options, &info)
	if err == nil {
		if s, ok := m.next.(streamer); ok {
			err = m.withRetry(ctx, p, &info, func(send []llms.MessageContent) error {
				var e error
				ch, e = s.GenerateContentStream(ctx, send, options...)
				return e
			})
		} else {
			var resp *llms.ContentResponse
			resp, err = m.generate(ctx, p, &info, options)
			if err == nil {
				one := make(chan llms.ContentResponse, 1)
				if resp != nil {
					one <- *resp
				}
				close(one)
				ch = one
			}
		}
	}
	m.finish(&info, start, err)
	if err != nil {
		return nil, err
	}
	return ch, nil
}

// prepared is the state of one call between compaction and the reply.
type prepared struct {
	id  string
	key string // the session's table key; "" for an automatic session (no recall)
	// tableKey is the session's table key, automatic or not.
	tableKey string
	// stored: the session is kept in the store (WithStore and an
	// explicit session).
	stored bool
	// branched: the call did not continue the stored conversation and was
	// served as a branch (WithStore).
	branched bool
	sess     *compact.Session
	tp       *textPrompt           // non-nil for a text-agent prompt
	in       []llms.MessageContent // the engine's input
	res      *compact.Result
	send     []llms.MessageContent
	// calls are the input's tool calls by id, built when an original
	// needs them.
	calls map[string]extractors.Call
	// hint is the call's compact.WithRecallHint: whether its tools
	// include the recall tool (recallhint.go).
	hint compact.CallOption
}

// ErrNotConfigured is returned by every call of a Model built by Wrap with
// a nil model or a nil compactor.
var ErrNotConfigured = errors.New("middleware: Wrap was given a nil model or compactor")

func (m *Model) prepare(ctx context.Context, msgs []llms.MessageContent, options []llms.CallOption, info *CallInfo) (*prepared, error) {
	if m == nil || m.next == nil || m.c == nil {
		return nil, m.Err()
	}
	if m.err != nil {
		return nil, m.err
	}
	if len(msgs) == 0 {
		return nil, fmt.Errorf("%w: middleware: the messages to send are empty (nil or zero length); nothing was sent to the model", compact.ErrInvalidInput)
	}
	p := &prepared{in: msgs}
	if m.o.textAgents {
		if tp, ok := parseTextAgent(msgs); ok {
			p.tp, p.in = tp, tp.structured()
			info.TextAgent, info.Steps = true, len(tp.steps)
		}
	}
	p.hint = recallHintOption(options, p.tp) // recallhint.go
	id, explicit := SessionFromContext(ctx)
	if explicit {
		if err := CheckSessionID(id); err != nil {
			return nil, err
		}
	}
	key := id
	if !explicit {
		var head *string
		if p.tp != nil {
			head = &p.tp.head
		}
		id = autoKey(msgs, head)
		key = autoTableKey(id)
	}
	sess, created := m.table.get(key)
	p.id, p.sess, p.tableKey = id, sess, key
	info.SessionID, info.Explicit, info.NewSession = id, explicit, created
	var res *compact.Result
	var err error
	// What this session last sent, for a cache-safe summarizer request.
	opts := []compact.CallOption{compact.WithLastSent(m.next, m.table.lastSent(key)), p.hint}
	if explicit && m.replica != nil {
		// An automatic conversation is process-local (I9): its id is
		// computable from its opening, so it is never stored nor read.
		p.stored = true
		res, err = m.compactStored(ctx, p, key, opts, "")
	} else {
		res, err = m.c.Compact(ctx, sess, p.in, opts...)
	}
	if err != nil {
		return nil, fmt.Errorf("middleware: compact %d messages of session %s: %w", len(msgs), idtext.Quote(id), err)
	}
	info.Branched = p.branched
	if res.Restarted && !p.branched {
		info.NewSession = true
		m.log(ctx, slog.LevelWarn, "compact: session restarted: its summary covers none of the messages (another conversation under the same session?)", "session", id)
	}
	if explicit {
		// Only a call with WithSession can recall: automatic keys are not
		// known to tools.
		p.key = key
	}
	if err := m.keepOriginals(ctx, p, res); err != nil {
		return nil, err
	}
	m.setResult(p, res, info)
	m.table.setSent(key, p.send)
	return p, nil
}

// setResult records a compaction result in p and info.
func (m *Model) setResult(p *prepared, res *compact.Result, info *CallInfo) {
	p.res = res
	p.send = res.Messages
	info.InputTokens, info.Budget = res.InputTokens, res.Budget
	info.SentTokens = res.Tokens
	if p.tp != nil {
		p.send = p.tp.flatten(res.Messages)
		info.SentTokens = m.c.CountTokens(p.send)
	}
	info.SentMessages = len(p.send)
	if res.Event != nil {
		info.Compactions = append(info.Compactions, *res.Event)
	}
}

// keepOriginals keeps the originals of what res compacted, for recall:
// in the store when it keeps originals (WithStore), else in the session's
// entry of the table (explicit sessions only).
func (m *Model) keepOriginals(ctx context.Context, p *prepared, res *compact.Result) error {
	if _, ok := m.o.store.(store.OriginalStore); (ok && p.stored) || p.key == "" {
		// With a store of originals, the turn stored them (compactStored).
		return nil
	}
	_, orig := m.table.originalsOf(p.key)
	if orig == nil || (!res.Compacted && !res.Restarted && orig.any()) {
		// Between compactions nothing new is compacted (I7): the
		// originals are those of the last compaction, already held.
		return nil
	}
	orig.keep(p.in, res.Refs, func(ref string, mc llms.MessageContent) store.Original {
		return m.originalOf(p, ref, mc)
	})
	return nil
}

// originalOf is the recall original of the input message mc under ref.
func (m *Model) originalOf(p *prepared, ref string, mc llms.MessageContent) store.Original {
	if mc.Role == llms.ChatMessageTypeTool {
		// The functions agent leaves tool results unnamed: name them
		// after their calls.
		if p.calls == nil {
			p.calls = extractors.CallsByID(p.in)
		}
		mc = msg.Clone(mc)
		for k, part := range mc.Parts {
			if r, ok := part.(llms.ToolCallResponse); ok && r.Name == "" {
				r.Name = p.calls[r.ToolCallID].Name
				mc.Parts[k] = r
			}
		}
	}
	return recall.OriginalOf(ref, "", mc)
}

// generate calls the wrapped model with the compacted messages (retrying
// once after an overflow) and feeds the provider's prompt tokens to the
// session's calibration.
func (m *Model) generate(ctx context.Context, p *prepared, info *CallInfo, options []llms.CallOption) (*llms.ContentResponse, error) {
	var resp *llms.ContentResponse
	err := m.withRetry(ctx, p, info, func(send []llms.MessageContent) error {
		var e error
		resp, e = m.next.GenerateContent(ctx, send, options...)
		return e
	})
	if err != nil {
		return nil, err
	}
	m.calibrate(p, resp, options, info)
	return resp, nil
}

// withRetry calls call with the compacted messages; on a context overflow it
// compacts at the emergency level and calls once more.
func (m *Model) withRetry(ctx context.Context, p *prepared, info *CallInfo, call func([]llms.MessageContent) error) error {
	err := call(p.send)
	if err == nil || !m.o.retry || !m.o.isOverflow(err) || ctx.Err() != nil {
		return err
	}
	before := info.SentTokens
	var res *compact.Result
	var cerr error
	if p.stored {
		res, cerr = m.compactStored(ctx, p, p.tableKey, []compact.CallOption{p.hint}, compact.ReasonOverflow)
	} else {
		res, cerr = m.c.CompactNow(ctx, p.sess, p.in, compact.ReasonOverflow, p.hint)
	}
	if cerr != nil {
		return fmt.Errorf("middleware: the model rejected the prompt as too long (%w), and the emergency compaction of session %s failed: %w", err, idtext.Quote(p.id), cerr)
	}
	if err := m.keepOriginals(ctx, p, res); err != nil {
		return err
	}
	m.setResult(p, res, info)
	if info.SentTokens >= before {
		m.log(ctx, slog.LevelWarn, "compact: overflow, but the context cannot shrink further", "session", p.id, "tokens", before)
		return err
	}
	info.Retried = true
	m.log(ctx, slog.LevelWarn, "compact: overflow, retrying after an emergency compaction", "session", p.id, "tokensBefore", before, "tokensAfter", info.SentTokens)
	return call(p.send)
}

// calibrate feeds the provider's prompt-token count to the session.
func (m *Model) calibrate(p *prepared, resp *llms.ContentResponse, options []llms.CallOption, info *CallInfo) {
	provider, ok := PromptTokens(resp)
	if !ok {
		info.Calibration = p.sess.Calibration()
		return
	}
	info.ProviderPromptTokens = provider
	if m.o.calibrate {
		var co llms.CallOptions
		for _, o := range options {
			if o != nil {
				o(&co)
			}
		}
		if f, ok := calibrationFactor(provider, info.SentTokens, m.tools.count(m.c, &co), m.c.Budget()); ok {
			p.sess.Calibrate(f)
		}
	}
	info.Calibration = p.sess.Calibration()
}

func (m *Model) finish(info *CallInfo, start time.Time, err error) {
	info.Duration = time.Since(start)
	info.Err = err
	if m.o.logger != nil {
		ctx := context.Background()
		for _, e := range info.Compactions {
			m.o.logger.LogAttrs(ctx, slog.LevelInfo, "compact: compaction",
				slog.String("session", info.SessionID), slog.String("reason", e.Reason), slog.String("mode", e.Mode),
				slog.Int("depth", e.Depth), slog.Int("tokensBefore", e.TokensBefore), slog.Int("tokensAfter", e.TokensAfter),
				slog.Int("budget", e.Budget))
		}
		m.o.logger.LogAttrs(ctx, slog.LevelDebug, "compact: call",
			slog.String("session", info.SessionID), slog.Int("messages", info.Messages), slog.Int("inputTokens", info.InputTokens),
			slog.Int("sentMessages", info.SentMessages), slog.Int("sentTokens", info.SentTokens), slog.Bool("retried", info.Retried),
			slog.Duration("duration", info.Duration), slog.Any("error", err))
	}
	if m.o.observer != nil {
		m.o.observer(*info)
	}
}

func (m *Model) log(ctx context.Context, level slog.Level, msg string, args ...any) {
	if m.o.logger != nil {
		m.o.logger.Log(ctx, level, msg, args...)
	}
}

// autoTableKey keeps automatic keys apart from explicit ids in the table.
func autoTableKey(id string) string { return "\x00" + id }

// Session returns the live session of a conversation: id is an id given to
// [WithSession], or an automatic id as reported in [CallInfo].SessionID. It
// returns nil when the table holds no such session (never used, evicted or
// expired). It neither creates the session nor refreshes its TTL.
func (m *Model) Session(id string) *compact.Session {
	if k, ok := tableKeyOf(id); ok {
		return m.table.lookup(k)
	}
	return nil
}

// tableKeyOf returns the table key of id: an automatic id's (an id
// starting with AutoSessionPrefix), or a chosen id's; ok is false for an
// id that is neither (refused by CheckSessionID).
func tableKeyOf(id string) (string, bool) {
	if strings.HasPrefix(id, AutoSessionPrefix) {
		return autoTableKey(id), true
	}
	return id, CheckSessionID(id) == nil
}

// PutSession installs s as the session of conversation id (an id given to
// [WithSession], or an automatic id as reported in [CallInfo].SessionID),
// for example one restored from JSON after a restart. A nil s forgets the
// conversation. An id [CheckSessionID] refuses (other than an automatic
// one) names no conversation: the call does nothing.
func (m *Model) PutSession(id string, s *compact.Session) {
	k, ok := tableKeyOf(id)
	switch {
	case !ok:
	case s == nil:
		m.table.forget(k)
	default:
		m.table.put(k, s)
	}
}

// ForgetSession drops the session of conversation id (an id given to
// [WithSession] or an automatic id); it reports whether there was one.
func (m *Model) ForgetSession(id string) bool {
	k, ok := tableKeyOf(id)
	return ok && m.table.forget(k)
}

// Sessions returns the number of sessions in the table (at most the
// [WithMaxSessions] capacity).
func (m *Model) Sessions() int { return m.table.len() }
