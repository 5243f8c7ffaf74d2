package compact

import "fmt"

// CallOption configures one [Compactor.Compact] or [Compactor.CompactNow]
// call. Options are applied in order; nil options are ignored.
type CallOption func(*callOptions)

type callOptions struct {
	ids     []string
	omitted int
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
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '~' || c == '-') {
			return false
		}
	}
	return true
}

// check validates the call options against an input of n messages.
func (o *callOptions) check(n int) error {
	if o.omitted < 0 {
		return fmt.Errorf("%w: WithOmitted(%d): must be >= 0", ErrInvalidInput, o.omitted)
	}
	if o.ids == nil {
		return nil
	}
	if len(o.ids) != n {
		return fmt.Errorf("%w: WithMessageIDs: %d ids for %d messages", ErrInvalidInput, len(o.ids), n)
	}
	for i, id := range o.ids {
		if !validID(id) {
			return fmt.Errorf("%w: WithMessageIDs: id %d (%.40q) is not 1-256 bytes of [A-Za-z0-9_.~-]", ErrInvalidInput, i, id)
		}
	}
	return nil // duplicates are found where the ids are indexed (prepareCaller)
}
