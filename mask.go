package compact

import (
	"github.com/agentcompact/compact/extractors"
	"github.com/agentcompact/compact/internal/msg"
	"github.com/tmc/langchaingo/llms"
)

// mask is stage 1: it replaces the tool outputs of non-pinned units before
// tailStart by their extractor summary, recording the masks (and which
// reported an error) in ns. A mask is kept only when it makes the message
// smaller. It returns how many messages it masked.
func (w *work) mask(ns *sessionState, tailStart int) int {
	n := 0
	for i := w.lead; i < tailStart; i++ {
		m := w.msgs[i]
		if w.dropped[i] || w.pinned(i) || m.Role != llms.ChatMessageTypeTool {
			continue
		}
		if _, done := ns.Masked[w.ids[i]]; done {
			continue
		}
		masks, failed, changed := w.maskParts(m, w.ref(i))
		if failed {
			w.flags[i] |= flagFailed // an error round keeps its priority, masked or not
		}
		if !changed {
			continue
		}
		masked := applyMask(m, masks)
		tok := w.c.counter.CountMessage(masked)
		if tok >= w.tokens[i] {
			continue
		}
		ns.setMask(w.ids[i], masks, failed)
		ns.Stats.MessagesMasked++
		w.view[i], w.tokens[i] = masked, tok
		w.flags[i] |= flagMasked
		n++
	}
	return n
}

// maskParts returns the fact line of each tool result of m, followed by
// the message's ref, when that is shorter than the output it replaces (""
// = part unchanged), whether any result's extraction reported an error, and
// whether any part changed.
func (w *work) maskParts(m llms.MessageContent, ref string) (masks []string, failed, changed bool) {
	masks = make([]string, len(m.Parts))
	for k, p := range m.Parts {
		r, ok := p.(llms.ToolCallResponse)
		if !ok {
			continue
		}
		call := w.callsByID()[r.ToolCallID]
		if call.Name == "" {
			call.Name = r.Name
		}
		if call.ID == "" {
			call.ID = r.ToolCallID
		}
		if w.c.registry.Verbatim(call.Name) {
			continue
		}
		sum := w.c.registry.Extract(call, r.Content)
		if sum.Status == extractors.StatusError {
			failed = true
		}
		// Parts are compared by bytes, the message by tokens (the
		// original's count is cached; the output is not tokenized again).
		if f := withRef(extractors.Format(sum), ref); len(f) < len(r.Content) {
			masks[k], changed = f, true
		}
	}
	return masks, failed, changed
}

// applyMask returns m with the content of each tool result k replaced by
// masks[k] when that is not empty.
func applyMask(m llms.MessageContent, masks []string) llms.MessageContent {
	out := msg.Clone(m)
	for k, p := range out.Parts {
		if k >= len(masks) || masks[k] == "" {
			continue
		}
		if r, ok := p.(llms.ToolCallResponse); ok {
			r.Content = masks[k]
			out.Parts[k] = r
		}
	}
	return out
}
