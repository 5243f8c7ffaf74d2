// Package storetest is the conformance harness of the store contract, in
// the spirit of testing/slogtest: it checks that an implementation of
// store.Store (and of store.HistoryStore and store.OriginalStore, when it
// implements them) behaves as the contract documents. Every store of this
// module passes it, and so should a user's own:
//
//	func TestMyStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store {
//			s, err := mystore.Open(t.TempDir())
//			if err != nil {
//				t.Fatal(err)
//			}
//			t.Cleanup(func() { s.Close() })
//			return s
//		})
//	}
//
// [Run] covers, for the state: the compare-and-swap (a Save at a stale
// version fails with store.ErrConflict and stores nothing), versions,
// appending to the summary chain from an index (and out-of-range indexes),
// Load returning copies and Save retaining nothing, concurrent
// load-modify-save writers on one session (no lost update), cancelled
// contexts (an error wrapping context.Canceled, nothing written), states of
// a few MB, text that is not valid UTF-8, and isolation of sessions whose
// ids look like SQL, patterns or very long strings. [RunHistory] covers the
// same for histories plus full fidelity of every kind of message,
// MessagesSince and its epoch (appends keep it; Clear and SetMessages start
// a new one) and concurrent appends (each turn whole and contiguous, for
// readers too). [RunOriginals] covers idempotent puts, not found, invalid
// refs, and searches: literal, case-insensitive, in insertion order, limited,
// within one session.
//
// Text that is not valid UTF-8 must come back exactly, or with each invalid
// byte replaced by U+FFFD as encoding/json writes it (the SQLite store keeps
// messages and records as JSON); nothing else passes. Where no two invalid
// bytes are adjacent, that is strings.ToValidUTF8(s, "\uFFFD").
//
// The subtests use session ids of their own (a random prefix), so a store
// need not be empty, and a persistent one can run them again. Times are
// compared as instants at microsecond precision, empty and nil slices as
// equal, and State.Engine as JSON (a JSON column may reformat it).
package storetest
