// Package refid is a ref's grammar as the engine shows it in a context:
// "ref:" followed by an id of [A-Za-z0-9_.-]+ (compact.Ref makes them). It
// finds, checks and extracts refs in text.
package refid
