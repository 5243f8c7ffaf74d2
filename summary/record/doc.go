// Package record holds the summary record a session's chain is made of
// ([Record], its structured [Context] and [ActionItem], the Mode
// constants): the one type a store persists besides the messages.
//
// It is a leaf: it imports nothing of this module and nothing outside the
// standard library, so that the store contract (package store) and its
// drivers depend on the record and not on the engine, the tokenizer, the
// extractors or the prompts. Everyone else keeps using their historical
// names, which are aliases of these types: summary.Record,
// compact.SummaryRecord and store.SummaryRecord are [Record];
// summary.Context and prompts.Context are [Context]; summary.ActionItem
// and prompts.ActionItem are [ActionItem]. The JSON form of a record is
// unchanged by the move.
//
// Redaction of a record's texts needs the extractors, so it is not here:
// see summary.Redact.
package record
