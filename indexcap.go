package compact

// IndexCap returns the tokens the file index of a rule-based summary may
// add beyond SummaryCap: 10% of the available budget. The rule-based
// digest lists every path the summarized tool calls named, each whole so
// that a search finds it; when they do not fit beside its other facts
// within SummaryCap, the summary grows by what the index takes beyond its
// share, at most IndexCap, so a rule-based summary takes at most
// SummaryCap()+IndexCap() tokens (20% of the budget at most). The
// summarizers of WithSummarizer keep SummaryCap.
func (c *Compactor) IndexCap() int { return c.budget / 10 }
