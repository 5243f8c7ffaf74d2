// Package msg is the one home of the message helpers the engine, the
// adapters and the tools share: the stable content hash of a message (the
// base of compact.MessageIDs), cloning, equality and tool-round detection.
// It imports nothing of the module, so every package may use it.
package msg
