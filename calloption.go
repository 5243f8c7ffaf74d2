package compact

import (
	"context"
	"errors"
	"fmt"

	"github.com/tmc/langchaingo/llms"
)

// CallOption configures one [Compactor.Compact] or [Compactor.CompactNow]
// call. Options are applied in order; nil options are ignored.
type CallOption func(*callOptions)

type callOptions struct {
	ids     []string
	omitted int
	gate    SummarizeGate
	sent    []llms.MessageContent
	sentTo  llms.Model
	reset   float64 // WithConversationPolicy (conversationpolicy.go); 0: the compactor's
	// wholeTurns: WithWholeTurns (conversationpolicy.go).
	wholeTurns bool
	// noRecallHint: WithRecallHint(false) (recallhint.go).
	noRecallHint bool
	reserve      int // WithReserve (reserve.go)
	// pending: WithPending (pending.go).
	pending    llms.MessageContent
	pendingID  string
	hasPending bool
	into       *Result // WithResultInto (output.go)
}

// WithLastSent tells the engine what the caller last sent to model (the
// previous call's messages, exactly), so that a summarizer asking the same
// model can send it as the unchanged prefix of its request and hit the
// provider's prompt cache (summary.Request.Sent; llmsummary's cache-safe
// request). The middleware passes it on every call. msgs is not modified
// or retained past the call. Default: none.
func WithLastSent(model llms.Model, msgs []llms.MessageContent) CallOption {
	return func(o *callOptions) { o.sentTo, o.sent = model, msgs }
}

// A SummarizeGate is asked, once per compaction and with the call's
// context, just before the engine calls its summarizer (never when it has
// none, or when the compaction needs no summary); reason is the
// compaction's ([ReasonTrigger], ...). It returns nil to let the
// summarizer run, an error wrapping [ErrSkipSummarizer] to have the
// rule-based digest written instead (mode rule, no summarizer call), or
// any other error to abandon the compaction: Compact then returns that
// error (wrapped) and leaves the session as it was. Adapters sharing a
// session across processes use it to run one summarizer call per
// compaction (see conversation.NewSummarizeGate).
type SummarizeGate func(ctx context.Context, reason string) error

// ErrSkipSummarizer, returned by a [SummarizeGate], makes the compaction
// use the rule-based digest instead of the summarizer.
var ErrSkipSummarizer = errors.New("compact: summarizer skipped by the gate")

// WithSummarizeGate sets the gate asked before the summarizer runs (see
// [SummarizeGate]). Default: none, the summarizer always runs.
func WithSummarizeGate(g SummarizeGate) CallOption {
	return func(o *callOptions) { o.gate = g }
}

// WithMessageIDs gives the stable ids of the input messages, index for
// index, instead of the ids the engine derives from their content
// ([MessageIDs]). An adapter that keeps its own history passes the ids it
// persists, so the session's state (what is summarized, masked, cut) refers
// to the same names whatever part of the history it passes. Each id must be
// non-empty, at most 256 bytes of [A-Za-z0-9_.~-], and unique in the call;
// the same id must always name the same message content. Messages the
// engine adds when it repairs the input get derived ids. Default: derived
// from content.
func WithMessageIDs(ids []string) CallOption {
	return func(o *callOptions) { o.ids = ids }
}

// WithOmitted tells the engine that the caller left n earlier messages of
// the conversation out of the input: messages the session already
// summarized (dropped by an earlier call), or messages the caller keeps out
// of the context on purpose (a window of the last turns). They count
// towards the conversation's length (cooldown, minMessages, stats), and the
// session forgets their ids (summarized, masked, cut), so its state stays
// proportional to the input. Use it with [WithMessageIDs], whose ids stay the same when the
// caller's window moves. n must be >= 0. Default 0: the input is the whole
// conversation.
func WithOmitted(n int) CallOption {
	return func(o *callOptions) { o.omitted = n }
}

// validID reports whether id is 1-256 bytes of [A-Za-z0-9_.~-].
func validID(id string) bool {
	if id == "" || len(id) > 256 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !idByte[id[i]] {
			return false
		}
	}
	return true
}

// idByte tells the bytes an id may hold: every id of every call is
// checked, so a table (one load a byte) rather than seven comparisons.
var idByte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '~' || c == '-'
	}
	return t
}()

// check validates the call options against an input of n messages.
func (o *callOptions) check(n int) error {
	if o.omitted < 0 {
		return fmt.Errorf("%w: WithOmitted(%d): must be >= 0", ErrInvalidInput, o.omitted)
	}
	if err := o.checkReserve(); err != nil {
		return err
	}
	if o.ids == nil {
		return nil
	}
	if len(o.ids) != n {
		return fmt.Errorf("%w: WithMessageIDs: %d ids for %d messages", ErrInvalidInput, len(o.ids), n)
	}
	return nil // the ids themselves are checked where they are indexed (prepareCaller: checkIDs)
}

// checkIDs reports the first of ids[from:] that is not a valid id (see
// validID): a call that extends the last one checks only its new ids, the
// others having been checked by the calls that gave them.
func checkIDs(ids []string, from int) error {
	for i := from; i < len(ids); i++ {
		if !validID(ids[i]) {
			return fmt.Errorf("%w: WithMessageIDs: id %d (%.40q) is not 1-256 bytes of [A-Za-z0-9_.~-]", ErrInvalidInput, i, ids[i])
		}
	}
	return nil
}
