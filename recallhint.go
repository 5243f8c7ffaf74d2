package compact

// WithRecallHint sets whether this call's summary message ends with
// [RecallHint], the pointer to the recall tool (package recall). Pass
// false when the model the context is sent to has no recall tool: a
// summary must not tell it to call a tool it cannot call. The hint is part
// of the rendered summary message only, not of the stored record, so a
// session can be called with and without it (the summary message changes
// when the setting does). middleware.Model passes it from the call's
// tools, memory.Memory from whether its RecallTool was taken.
// Default true: a direct engine user keeps the hint it always had.
func WithRecallHint(on bool) CallOption {
	return func(o *callOptions) { o.noRecallHint = !on }
}

// recallHint returns the text that ends w's summary message: [RecallHint],
// or "" when the call said there is no recall tool (WithRecallHint).
func (w *work) recallHint() string {
	if w.noRecallHint {
		return ""
	}
	return RecallHint
}
