package compact

import "github.com/tmc/langchaingo/llms"

// output is the context a call returns and where each message comes from.
type output struct {
	msgs    []llms.MessageContent
	origin  []int // per message: the caller's input index, -1 if made by the engine
	summary int   // index of the summary message in msgs, -1 if none
}

// outputLen returns the number of messages output would return.
func (w *work) outputLen() int {
	n := 0
	for _, d := range w.dropped {
		if !d {
			n++
		}
	}
	if w.summary != nil {
		n++
	}
	return n
}

// output returns the view: the leading system messages, the summary, then
// every message not dropped. Its slices and the messages' Parts slices
// (which share one backing array) are new, or with WithResultInto those
// of the Result given, overwritten.
func (w *work) output() output {
	nparts := 0
	for i := range w.view {
		if !w.dropped[i] {
			nparts += len(w.view[i].Parts)
		}
	}
	if w.summary != nil {
		nparts += len(w.summary.Parts)
	}
	n := w.outputLen()
	a := w.arrays()
	parts := reuse(a.parts, nparts)
	out := output{msgs: reuse(a.msgs, n), origin: reuse(a.origin, n), summary: -1}
	add := func(m llms.MessageContent, src int) {
		start := len(parts)
		parts = append(parts, m.Parts...)
		out.msgs = append(out.msgs, llms.MessageContent{Role: m.Role, Parts: parts[start:len(parts):len(parts)]})
		out.origin = append(out.origin, src)
	}
	for i := 0; i < w.lead; i++ {
		add(w.view[i], w.src[i])
	}
	if w.summary != nil {
		out.summary = len(out.msgs)
		add(*w.summary, -1)
	}
	for i := w.lead; i < len(w.view); i++ {
		if !w.dropped[i] {
			add(w.view[i], w.src[i])
		}
	}
	a.msgs, a.parts, a.origin = out.msgs, parts, out.origin
	return out
}

// resultArrays holds the slices of a Result filled in place
// (WithResultInto) at their full length: dropping the pending message
// shortens the Result's own.
type resultArrays struct {
	msgs   []llms.MessageContent
	parts  []llms.ContentPart
	origin []int
	states []MessageState
	refs   []string
}

// arrays returns the arrays to build the call's Result in: those of the
// Result given with WithResultInto, or empty ones (the Result's slices are
// then new).
func (w *work) arrays() *resultArrays {
	if w.into == nil {
		return &resultArrays{}
	}
	if w.into.arrays == nil {
		w.into.arrays = &resultArrays{}
	}
	return w.into.arrays
}

// reuse returns s emptied when it can hold n elements, else a new slice
// with room for n and, when s was used before, a quarter more (a window
// grows between calls).
func reuse[T any](s []T, n int) []T {
	switch {
	case s == nil: // never nil, even empty: a message without parts has empty Parts, not nil
		return make([]T, 0, n)
	case cap(s) >= n:
		return s[:0]
	}
	return make([]T, 0, n+n/4)
}

// refs returns the ref of each of the caller's input messages that the
// view does not show verbatim (masked, cut or summarized), "" for the
// others. An input message split by repair has the ref of its first part.
func (w *work) refs(states []MessageState) []string {
	a := w.arrays()
	refs := resize(a.refs, w.nIn)
	a.refs = refs
	for i, s := range w.src {
		if s >= 0 && states[s] != StateKept && refs[s] == "" {
			refs[s] = w.ref(i)
		}
	}
	return refs
}

// states returns what the view does with each of the caller's input
// messages. An input message split by repair is summarized only when every
// part of it is: otherwise it is (partly) in the output.
func (w *work) states() []MessageState {
	const dropped, shown MessageState = 1 << 6, 1 << 7 // of its parts, per input
	a := w.arrays()
	st := resize(a.states, w.nIn)
	a.states = st
	for i, s := range w.src {
		switch {
		case s < 0:
		case w.dropped[i]:
			st[s] |= dropped
		default:
			st[s] |= shown
			if w.flags[i]&flagMasked != 0 {
				st[s] |= StateMasked
			}
			if w.flags[i]&flagCut != 0 {
				st[s] |= StateCut
			}
		}
	}
	for i, s := range st {
		if s&shown == 0 && s&dropped != 0 {
			st[i] = StateSummarized
		} else {
			st[i] = s &^ (dropped | shown)
		}
	}
	return st
}

// result builds the Result of a call that did not compact.
func (w *work) result(st *sessionState, tokens, inputTokens, bud int, repairs []string) *Result {
	return w.resultFrom(w.output(), st, tokens, inputTokens, bud, repairs)
}

func (w *work) resultFrom(out output, st *sessionState, tokens, inputTokens, bud int, repairs []string) *Result {
	states := w.states()
	res := w.into
	if res == nil {
		res = new(Result)
	}
	*res = Result{Messages: out.msgs, Origin: out.origin, SummaryIndex: out.summary, States: states, Refs: w.refs(states), Tokens: w.reserveTokens(tokens),
		InputTokens: w.reserveTokens(inputTokens), Budget: bud, Repairs: repairs, Summary: st.latest(), arrays: res.arrays}
	return res
}
