package store

// MaxSessionIDBytes is the longest session id the adapters accept
// (conversation.CheckID) and the longest a bounded store (store/pgstore)
// keys. store.Memory and store/sqlitestore key any id.
const MaxSessionIDBytes = 64 << 10
