package compact

// decide returns the reason to compact a conversation of convLen messages
// (omitted ones included) whose view counts tokens of the budget bud, or ""
// to leave it as it is, named by its cause: the trigger ratio compacts
// once the conversation has minMessages messages and, after an earlier
// compaction, the cooldown has passed and the context grew by the
// trigger-reset gap (hysteresis: a context that could not get down to the
// reset ratio does not compact on every cooldown); that is ReasonTrigger
// also when one turn took the context past the emergency ratio (routine
// at small windows). ReasonEmergency is a compaction only the emergency
// ratio called for: cooldown or minMessages would have held it back. A
// context unchanged since the last compaction left it within the budget
// (cut to it) is left as it is. reset is the call's reset ratio; a call's
// reset above the trigger ratio (WithConversationPolicy) raises the
// trigger to the emergency ratio: such a call compacts when the budget is
// full and aims for reset, so the gap between them is its hysteresis (a
// trigger at reset would compact on every cooldown, dropping a turn or
// two each time).
func (c *Compactor) decide(st *sessionState, convLen, tokens, bud int, reset float64) string {
	ratio := float64(tokens) / float64(bud)
	switch {
	case tokens <= bud && convLen == st.LastCompactionLen && tokens == st.LastCompactionTokens:
		return "" // unchanged since the last compaction left it within the budget (cut to it)
	case ratio >= c.triggerOf(reset) && c.triggerDue(st, convLen, tokens, bud, reset):
		return ReasonTrigger
	case ratio >= c.o.emergency:
		return ReasonEmergency
	}
	return ""
}

// triggerDue reports whether the trigger policy lets a context at or
// above the trigger ratio compact (minMessages, cooldown, hysteresis).
func (c *Compactor) triggerDue(st *sessionState, convLen, tokens, bud int, reset float64) bool {
	if convLen < c.o.minMessages {
		return false
	}
	if st.LastCompactionLen == 0 {
		return true
	}
	since := convLen - st.LastCompactionLen
	grown := tokens - st.LastCompactionTokens
	return since >= c.o.cooldown && grown >= int(max(c.triggerOf(reset)-reset, 0)*float64(bud))
}

// triggerOf returns the trigger ratio of a call whose reset ratio is
// reset: the compactor's, or the emergency ratio for a reset above it
// (WithConversationPolicy).
func (c *Compactor) triggerOf(reset float64) float64 {
	if reset > c.o.trigger {
		return max(reset, c.o.emergency)
	}
	return c.o.trigger
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
