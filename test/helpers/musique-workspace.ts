// Moved to bench/support/ (benches use it too, and bench/ imports nothing from test/).
export * from '../../bench/support/musique-workspace'
