// Package idtext quotes, for an error text or a log, an id that came
// from outside (a session id, a message or tool call id, a
// model name): whole when short, else a prefix and a hash, so that an
// over-long id never makes an error text long.
package idtext
