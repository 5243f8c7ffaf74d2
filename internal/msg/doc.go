// Package msg holds message helpers for the engine, the adapters and the
// tools: the stable content hash of a message (the
// base of compact.MessageIDs), cloning, equality and tool-round detection.
// It imports nothing of the module, so every package may use it.
package msg
