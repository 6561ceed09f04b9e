// The GGUF writers moved to bench/support/gguf/ (benches use them too); the runtime and reference helpers stay here, test-only.
export * from '../../../bench/support/gguf'
