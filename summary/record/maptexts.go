package record

// MapTexts returns a copy of r whose every text (Summary, KeyPoints, and
// every string of Context) is fn of r's, in that order. The copy shares no
// slice with r (an empty slice stays empty, nil stays nil). Redaction
// (summary.Redact) and the engine's text checks are built on it.
func (r Record) MapTexts(fn func(string) string) Record {
	list := func(l []string) []string {
		if l == nil {
			return nil
		}
		out := make([]string, len(l))
		for i, s := range l {
			out[i] = fn(s)
		}
		return out
	}
	r.Summary = fn(r.Summary)
	r.KeyPoints = list(r.KeyPoints)
	r.OriginalMessageIDs = append([]string(nil), r.OriginalMessageIDs...)
	c := r.Context
	c.Participants, c.Decisions = list(c.Participants), list(c.Decisions)
	c.Unresolved, c.DomainEntities = list(c.Unresolved), list(c.DomainEntities)
	if c.ActionItems != nil {
		items := make([]ActionItem, len(c.ActionItems))
		for i, a := range c.ActionItems {
			items[i] = ActionItem{Owner: fn(a.Owner), Task: fn(a.Task), Due: fn(a.Due)}
		}
		c.ActionItems = items
	}
	r.Context = c
	return r
}
