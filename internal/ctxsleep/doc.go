// Package ctxsleep waits for a duration or until a context ends,
// whichever comes first ([Sleep]): the pause between the attempts of a
// retry loop. It imports nothing of this module.
package ctxsleep
