// Package refid is the one home of a ref's grammar as the engine shows it
// in a context: "ref:" followed by an id of [A-Za-z0-9_.-]+ (compact.Ref
// makes them). The engine, the recall tool, the summarizer and the
// evaluation's checks all read refs through it.
package refid
