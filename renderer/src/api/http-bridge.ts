import type { Envelope, EventName, HarnessApi } from '../../../preload/contract'
import { channels } from '../../../preload/contract/define'
import { ApiCallError, unwrap } from './errors'

const TOKEN_KEY = 'harness-lab-token'

/** Takes the launch token from the URL (then hides it from the address bar) or from this tab's session. */
export function takeToken(loc: Location, storage: Storage, history: History): string | null {
  const params = new URLSearchParams(loc.search)
  const fromUrl = params.get('token')
  if (fromUrl) {
    storage.setItem(TOKEN_KEY, fromUrl)
    params.delete('token')
    const rest = params.toString()
    history.replaceState(history.state, '', `${loc.pathname}${rest ? `?${rest}` : ''}${loc.hash}`)
    return fromUrl
  }
  return storage.getItem(TOKEN_KEY)
}

/** What the page says while its event stream is lost (the same words the tests look for). */
export const STREAM_PROBLEMS = {
  reconnecting: 'Lost the connection to the Harness Lab server; reconnecting (is `npm run serve` still running?). Live updates resume when it answers.',
  restarted: 'The Harness Lab server was started again and has a new token: open the URL it printed. Live updates on this page have stopped.',
  unreachable: 'The Harness Lab server is not reachable: live updates have stopped. Start `npm run serve` and open the URL it prints.',
  stopped: 'The server ended this page\'s live updates: reload the page.',
} as const

/** The API over HTTP (calls) and Server-Sent Events (events), for browser mode. */
export function httpApi(token: string | null, base = ''): HarnessApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const problemListeners = new Set<(problem: string | null) => void>()
  let problem: string | null = null
  let source: EventSource | null = null
  let leaving = false

  const tell = (next: string | null): void => {
    if (next === problem) return
    problem = next
    for (const l of problemListeners) l(next)
  }
  /** The stream ended for good (the server answered its reconnect with an error status): why, asked of the server. */
  const ended = async (): Promise<void> => {
    const res = await fetch(`${base}${channels.httpCall}app.info`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: '{}' }).catch(() => null)
    if (res?.status === 401) tell(STREAM_PROBLEMS.restarted)
    else if (!res) tell(STREAM_PROBLEMS.unreachable)
    else tell(STREAM_PROBLEMS.stopped)
  }

  const ensureSource = (): void => {
    if (source || !token) return
    source = new EventSource(`${base}${channels.httpEvents}?token=${encodeURIComponent(token)}`)
    // The browser reconnects a dropped stream by itself (CONNECTING) but gives up on an error status (CLOSED):
    // a server launched again has a new token, so this page's is refused.
    source.addEventListener('open', () => tell(null))
    source.addEventListener('error', () => {
      if (leaving || !source) return
      if (source.readyState === EventSource.CLOSED) void ended()
      else tell(STREAM_PROBLEMS.reconnecting)
    })
    // A reconnect gets the events it missed from the server; where the server no longer keeps them all, the
    // page's state can only be brought up to date by loading it again.
    source.addEventListener(channels.httpResync, () => window.location.reload())
    // Closed as the page goes away, so a reload ends the stream in order instead of leaving the browser to abort it.
    if (typeof window !== 'undefined') {
      window.addEventListener(
        'pagehide',
        () => {
          leaving = true
          source?.close()
        },
        { once: true },
      )
    }
  }

  return {
    async call(route, input) {
      let res: Response
      try {
        res = await fetch(`${base}${channels.httpCall}${route}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(input ?? {}),
        })
      } catch {
        throw new ApiCallError({ code: 'INTERNAL', message: 'The Harness Lab server is not reachable: is `npm run serve` still running?' })
      }
      const envelope = (await res.json().catch(() => null)) as Envelope<unknown> | null
      if (!envelope) throw new ApiCallError({ code: 'INTERNAL', message: `Unexpected response (${res.status}) from the server` })
      return unwrap(envelope) as never
    },
    on(event: EventName, listener) {
      ensureSource()
      let set = listeners.get(event)
      if (!set) {
        set = new Set()
        listeners.set(event, set)
        source?.addEventListener(event, (e) => {
          const payload = JSON.parse((e as MessageEvent<string>).data) as unknown
          for (const l of listeners.get(event) ?? []) l(payload)
        })
      }
      const typed = listener as (p: unknown) => void
      set.add(typed)
      return () => set.delete(typed)
    },
    onStreamProblem(listener) {
      ensureSource()
      problemListeners.add(listener)
      listener(problem)
      return () => problemListeners.delete(listener)
    },
  }
}
