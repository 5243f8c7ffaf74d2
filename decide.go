package compact

// decide returns the reason to compact a conversation of convLen messages
// (omitted ones included) whose view counts tokens of the budget bud, or ""
// to leave it as it is: the emergency ratio always compacts; the trigger
// ratio compacts once the conversation has minMessages messages and, after
// an earlier compaction, the cooldown has passed and the context grew by
// the trigger-reset gap (hysteresis: a context that could not get down to
// the reset ratio does not compact on every cooldown).
func (c *Compactor) decide(st *sessionState, convLen, tokens, bud int, reset float64) string {
	ratio := float64(tokens) / float64(bud)
	switch {
	case tokens <= bud && convLen == st.LastCompactionLen && tokens == st.LastCompactionTokens:
		return "" // unchanged since the last compaction left it within the budget (cut to it)
	case ratio >= c.o.emergency:
		return ReasonEmergency
	case ratio < c.o.trigger || convLen < c.o.minMessages:
		return ""
	case st.LastCompactionLen == 0:
		return ReasonTrigger
	}
	since := convLen - st.LastCompactionLen
	grown := tokens - st.LastCompactionTokens
	if since >= c.o.cooldown && grown >= int((c.o.trigger-reset)*float64(bud)) {
		return ReasonTrigger
	}
	return ""
}

// target returns the tokens a compaction for reason aims for: the reset
// ratio of the budget; half of it after a provider overflow (the provider
// counted more than the engine); 0 for a manual compaction ("/summarize":
// everything outside the preserved tail and the pinned messages is masked
// and summarized, however small the context already is).
func (c *Compactor) target(reason string, bud int, reset float64) int {
	switch reason {
	case ReasonOverflow:
		return int(reset / 2 * float64(bud))
	case ReasonManual:
		return 0
	}
	return int(reset * float64(bud))
}
