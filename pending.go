package compact

import (
	"fmt"
	"slices"

	"github.com/agentcompact/compact/budget"
	"github.com/tmc/langchaingo/llms"
)

// WithPending gives the engine the caller's next message, not yet in the
// conversation (the input a memory is loaded for): the call compacts as if
// it were appended to the input, named id (required with
// [WithMessageIDs]; "" derives it from the input and its content, as
// [MessageIDs] would once it is appended), so that a user message is
// pinned as the latest one and the history compacted around it; and the
// [Result] describes the input without it: Messages and Origin leave it
// out, States and Refs are the input's, Tokens excludes its tokens (0 for
// an empty input), and PendingState says what the output did with it (the
// engine's last resort may cut it). Give the message with the same id once
// it is in the input: the session's state then still names it. mc is not
// modified or retained. An id without WithMessageIDs is an error but for
// an empty input. Default: none.
func WithPending(mc llms.MessageContent, id string) CallOption {
	return func(o *callOptions) { o.pending, o.pendingID, o.hasPending = mc, id, true }
}

// checkPending validates the pending message's id against an input of n
// messages (see WithPending).
func (o *callOptions) checkPending(n int) error {
	if !o.hasPending {
		return nil
	}
	switch {
	case o.pendingNamed(n):
		if !validID(o.pendingID) {
			return fmt.Errorf("%w: WithPending: id %.40q is not 1-256 bytes of [A-Za-z0-9_.~-]", ErrInvalidInput, o.pendingID)
		}
	case o.pendingID != "":
		return fmt.Errorf("%w: WithPending: an id needs WithMessageIDs", ErrInvalidInput)
	}
	return nil
}

// pendingNamed reports whether the pending message joins an input of n
// messages by its id: the input has ids, or is empty and the id is given.
func (o *callOptions) pendingNamed(n int) bool {
	return o.ids != nil || (n == 0 && o.pendingID != "")
}

// withPending returns the call's input with its pending message appended,
// and sets the ids to match (in itself when there is none). in is not
// modified: the joined input is written to buf, a session's buffer reused
// from call to call (the caller holds the session's lock; the joined slice
// does not outlive the call: memo.release clears it when the call ends).
func (o *callOptions) withPending(in []llms.MessageContent, buf *pendingBuf) []llms.MessageContent {
	if !o.hasPending {
		return in
	}
	if o.pendingNamed(len(in)) {
		buf.ids = append(append(buf.ids[:0], o.ids...), o.pendingID)
		o.ids = buf.ids
	}
	buf.msgs = append(append(buf.msgs[:0], in...), o.pending)
	return buf.msgs
}

// pendingBuf holds the arrays of a call's input joined with its pending
// message, reused by the next call of the session.
type pendingBuf struct {
	msgs []llms.MessageContent
	ids  []string
}

// release clears the joined input when the call ends, so that the session
// does not retain the caller's messages between calls.
func (b *pendingBuf) release() { clear(b.msgs) }

// dropPending takes the pending message out of res, a result over the
// caller's n input messages plus the pending one (see WithPending).
func (o *callOptions) dropPending(res *Result, n int, counter *budget.TokenCounter) {
	if !o.hasPending || res == nil {
		return
	}
	if n < len(res.States) {
		res.PendingState = res.States[n]
	}
	// The messages before the pending message's first stay where they are:
	// only the origins are read up to there (a message past the end of
	// Origin has origin -1).
	j := slices.Index(res.Origin, n)
	if j < 0 || j > len(res.Messages) {
		j = len(res.Messages)
	}
	for k := j; k < len(res.Messages); k++ {
		om := res.Messages[k]
		orig := -1
		if k < len(res.Origin) {
			orig = res.Origin[k]
		}
		if orig == n {
			res.Tokens -= counter.CountMessage(om)
			continue
		}
		res.Messages[j] = om
		if j < len(res.Origin) {
			res.Origin[j] = orig
		}
		j++
	}
	res.Messages = res.Messages[:j:j]
	res.Origin = res.Origin[:min(j, len(res.Origin)):min(j, len(res.Origin))]
	res.States = res.States[:min(n, len(res.States)):min(n, len(res.States))]
	res.Refs = res.Refs[:min(n, len(res.Refs)):min(n, len(res.Refs))]
	res.InputTokens -= counter.CountMessage(o.pending)
	if n == 0 {
		res.Tokens, res.InputTokens = 0, 0
	}
}
