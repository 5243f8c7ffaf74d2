package compact

import (
	"slices"

	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// viewEntry is the view of one masked or cut message as a call replayed
// it (work.applyMasksAndCuts), kept in the session's memo so that the next
// call, given the same message with the same mask and cut, takes the view
// and its token count instead of cutting (which reads the message's
// instructions) and counting it again.
type viewEntry struct {
	by   *Compactor          // whose counter counted tok
	in   llms.MessageContent // the input message (its own Parts slice)
	mask []string
	cut  cutSpan
	cuts bool // cut applies
	view llms.MessageContent
	tok  int
}

// replayed returns the view of input message i (id) with mask (none when
// nil) and cut (when cuts) applied, and its tokens: from the memo when the
// last call replayed the same message the same way, else made and kept.
// The view is never modified in place (a stage that changes a message
// assigns a new one), so the memo may share it with the work.
func (w *work) replayed(i int, id string, mask []string, cut cutSpan, cuts bool) (llms.MessageContent, int) {
	var views map[string]viewEntry
	if w.memo != nil {
		views = w.memo.views
	}
	if e, ok := views[id]; ok && e.by == w.c && e.cuts == cuts && e.cut == cut &&
		slices.Equal(e.mask, mask) && msg.Equal(e.in, w.msgs[i]) {
		return e.view, e.tok
	}
	view := w.msgs[i]
	if mask != nil {
		view = applyMask(view, mask)
	}
	if cuts {
		view = cut.apply(view, w.ref(i))
	}
	tok := w.c.counter.CountMessage(view)
	if w.memo != nil {
		if views == nil || len(views) > 2*len(w.ids)+64 {
			views = make(map[string]viewEntry)
			w.memo.views = views
		}
		views[id] = viewEntry{by: w.c, in: msg.Clone(w.msgs[i]), mask: mask, cut: cut, cuts: cuts, view: view, tok: tok}
	}
	return view, tok
}
