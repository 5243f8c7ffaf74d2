package compact

import (
	"fmt"
	"strconv"

	"github.com/tmc/langchaingo/llms"

	"github.com/agentcompact/compact/internal/idtext"
	"github.com/agentcompact/compact/internal/msg"
)

// memo keeps what the engine derived from a session's previous input: the
// messages (with their own Parts slices), their ids and token counts. An
// agent sends the same history plus a few messages on every call; the
// common prefix is recognized by comparing messages (strings compare by
// pointer first, so an unchanged history costs no hashing) and only the new
// messages are hashed and counted. With caller-supplied ids the token
// counts are found by id instead, so a caller's moving window costs no
// recount. It is not serialized: a restored session rebuilds it on its
// first call.
type memo struct {
	in    []llms.MessageContent
	ids   []string
	base  []string // ids without the "~n" suffix
	tok   []int
	seen  map[string]int
	valid bool

	byID map[string]memoEntry // caller-id mode
	gen  uint64               // caller-id mode: the current call

	refs map[string]string // message id -> ref, for the session's id
	rs   []string          // derived mode: the ref of the message at each position, "" until asked

	// caller-id mode: the shape (role, number of parts) of the last call's
	// messages by position, and whether its ids and counts (arrays.ids,
	// arrays.tok) may be reused for a call that extends it
	posRole  []llms.ChatMessageType
	posParts []int32
	posValid bool

	views map[string]viewEntry // masked and cut messages as the last calls replayed them (viewcache.go)

	arrays  workArrays // the last call's work arrays, reused by the next (work.go)
	pending pendingBuf // the last call's input with its pending message (pending.go)
}

// release drops the references to the call's messages once the call is
// done (its work arrays, its input joined with the pending message, which
// the repaired input may be), so that a session does not retain a
// caller's messages between calls.
func (m *memo) release() {
	m.arrays.release()
	m.pending.release()
}

// ref returns the ref of message id in session sid, computed once per
// message (a SHA-256) and kept while the message is in the input.
func (m *memo) ref(sid, id string) string {
	if r, ok := m.refs[id]; ok {
		return r
	}
	if m.refs == nil || len(m.refs) > 2*max(len(m.ids), len(m.byID))+64 {
		m.refs = make(map[string]string)
	}
	r := Ref(sid, id)
	m.refs[id] = r
	return r
}

// refAt returns the ref of repaired message i, whose id is id: from the
// positional cache when the memo holds the input by position (ids derived
// from content), else from ref.
func (m *memo) refAt(sid string, i int, id string) string {
	if !m.valid || i >= len(m.ids) || m.ids[i] != id {
		return m.ref(sid, id)
	}
	if len(m.rs) < len(m.ids) {
		m.rs = append(m.rs, make([]string, len(m.ids)-len(m.rs))...)
	}
	if m.rs[i] == "" {
		m.rs[i] = Ref(sid, id)
	}
	return m.rs[i]
}

type memoEntry struct {
	m   llms.MessageContent
	tok int
	gen uint64 // the call that last gave it
}

// prepare returns the ids and token counts of msgs (the repaired input).
// callerIDs, when set, are the caller's ids of the input before repair
// (src maps each repaired message to its input index, -1 for a synthetic
// one); else ids are derived from content.
func (c *Compactor) prepare(m *memo, msgs []llms.MessageContent, src []int, callerIDs []string) ([]string, []int, error) {
	if callerIDs == nil {
		m.byID, m.posValid = nil, false
		ids, tok := c.prepareDerived(m, msgs)
		return ids, tok, nil
	}
	m.valid = false
	return c.prepareCaller(m, msgs, src, callerIDs)
}

// prepareDerived reuses the memo for the common prefix of msgs and hashes
// and counts the rest.
func (c *Compactor) prepareDerived(m *memo, msgs []llms.MessageContent) ([]string, []int) {
	k := 0
	if m.valid {
		for k < len(msgs) && k < len(m.in) && msg.Equal(msgs[k], m.in[k]) {
			k++
		}
	}
	if !m.valid || k < len(m.in) {
		// Diverged: keep the common prefix, rebuild the duplicate counts.
		m.in, m.ids, m.base, m.tok = m.in[:k:k], m.ids[:k:k], m.base[:k:k], m.tok[:k:k]
		m.rs = m.rs[:min(k, len(m.rs)):min(k, len(m.rs))]
		m.seen = make(map[string]int, len(msgs))
		for _, b := range m.base {
			m.seen[b]++
		}
	}
	for i := k; i < len(msgs); i++ {
		mc := msg.Clone(msgs[i])
		b := msg.Hash(mc)
		m.seen[b]++
		m.in = append(m.in, mc)
		m.ids = append(m.ids, msg.ID(b, m.seen[b]))
		m.base = append(m.base, b)
		m.tok = append(m.tok, c.counter.CountMessage(mc))
	}
	m.valid = true
	return m.ids[:len(msgs):len(msgs)], m.tok[:len(msgs):len(msgs)]
}

// prepareCaller names the repaired messages after the caller's ids: the
// first message made from input i is ids[i], a second one (an orphaned
// result split off by repair) ids[i]+".r2", and a synthetic one its content
// hash; a name already taken gets an occurrence suffix. Token counts come
// from the memo by id when the message is unchanged. The memo's entries are
// marked with the call's generation, so the steady state allocates no map;
// entries of messages no longer given are swept when they outnumber the
// input.
func (c *Compactor) prepareCaller(m *memo, msgs []llms.MessageContent, src []int, callerIDs []string) ([]string, []int, error) {
	if m.byID == nil {
		m.byID = make(map[string]memoEntry, len(msgs))
	}
	simple := len(msgs) == len(callerIDs) // no repair split or added a message
	for i := 0; simple && i < len(src); i++ {
		simple = src[i] == i
	}
	k := m.extendsLast(msgs, callerIDs, simple)
	if err := checkIDs(callerIDs, k); err != nil {
		return nil, nil, err
	}
	m.posValid = false // until this call is through
	if k == 0 {
		m.gen++
	}
	ids, tok := grow(m.arrays.ids, k, len(msgs)), grow(m.arrays.tok, k, len(msgs))
	m.arrays.ids, m.arrays.tok = ids, tok // reused by the next call (work.go)
	m.posRole, m.posParts = grow(m.posRole, k, len(msgs)), grow(m.posParts, k, len(msgs))
	var from map[int]int
	for i := k; i < len(msgs); i++ {
		mc := msgs[i]
		m.posRole[i], m.posParts[i] = mc.Role, int32(len(mc.Parts))
		var id string
		switch s := src[i]; {
		case simple:
			id = callerIDs[i]
		case s < 0:
			id = msg.Hash(mc)
		default:
			if from == nil {
				from = make(map[int]int, 4)
			}
			from[s]++
			id = callerIDs[s]
			if n := from[s]; n > 1 {
				id += ".r" + strconv.Itoa(n)
			}
		}
		e, ok := m.byID[id]
		if ok && e.gen == m.gen {
			if src[i] >= 0 && (simple || from[src[i]] == 1) {
				return nil, nil, fmt.Errorf("%w: WithMessageIDs: id %s given twice (input %d)", ErrInvalidInput, idtext.Quote(id), src[i])
			}
			base := id
			for n := 2; ok && e.gen == m.gen; n++ {
				id = msg.ID(base, n)
				e, ok = m.byID[id]
			}
		}
		if !ok || !msg.Equal(e.m, mc) {
			e = memoEntry{m: msg.Clone(mc), tok: c.counter.CountMessage(mc)}
		}
		e.gen = m.gen
		m.byID[id] = e
		ids[i], tok[i] = id, e.tok
	}
	if len(m.byID) > 2*len(msgs)+64 {
		for id, e := range m.byID {
			if e.gen != m.gen {
				delete(m.byID, id)
			}
		}
	}
	m.posValid = simple
	return ids, tok, nil
}

// extendsLast returns the length of the last call's input when this one
// (given the same way: simple, no message split or added by repair)
// begins with it: the same ids, position for position, and messages of
// the same shape. An agent's or a memory's next call is its last input
// plus new messages; that prefix keeps its ids, counts and the marks of
// the call's generation (an id names one content, WithMessageIDs), so a
// call costs the new messages' map work, not the window's. 0 otherwise.
func (m *memo) extendsLast(msgs []llms.MessageContent, callerIDs []string, simple bool) int {
	last := m.arrays.ids
	if !m.posValid || !simple || len(last) == 0 || len(last) > len(msgs) || len(m.posRole) < len(last) {
		return 0
	}
	for i, id := range last {
		if callerIDs[i] != id || msgs[i].Role != m.posRole[i] || int32(len(msgs[i].Parts)) != m.posParts[i] {
			return 0
		}
	}
	return len(last)
}

// grow returns s with length n, keeping its first k elements and zeroing
// the rest, reusing its array when it is large enough.
func grow[T any](s []T, k, n int) []T {
	if k == 0 {
		return resize(s, n)
	}
	if cap(s) < n {
		t := make([]T, n, n+n/8)
		copy(t, s[:k])
		return t
	}
	s = s[:n]
	clear(s[k:])
	return s
}
