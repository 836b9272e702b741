/**
 * roomie-web/src/api/client.ts
 *
 * The browser side of the Roomie API: one small wrapper around fetch() that every
 * page uses. WEB-3120 Lab 5 starter code (2026). Students extend this file; do not
 * replace it with a third-party HTTP library (axios etc.), the tests import from here.
 *
 * Rules this module enforces:
 *   - every request goes to the same origin under /api/v1 (no CORS needed, see nginx.conf)
 *   - cookies are sent (credentials: "same-origin"); the session cookie is HttpOnly,
 *     so this code never sees it
 *   - every state-changing request carries the CSRF token in the X-CSRF-Token header
 *   - user text is never written with innerHTML (ESLint: no-restricted-syntax)
 */

export const API_BASE = "/api/v1";

/** Abort a request that has not answered after this many milliseconds. */
export const REQUEST_TIMEOUT_MS = 8000;

/** GET requests are retried on network errors and 502/503/504; others never are. */
export const MAX_RETRIES = 3;
const RETRY_BASE_DELAY_MS = 250;
const RETRYABLE_STATUS = new Set([502, 503, 504]);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface Room {
  id: number;
  name: string;
  building: string;
  capacity: number;
  photoUrl: string | null;
}

export interface Booking {
  id: number;
  roomId: number;
  startAt: string; // ISO 8601 with offset, e.g. 2026-06-05T13:00:00+09:00
  endAt: string;
  memo: string;
}

/** The error body the Go API sends with every 4xx/5xx (see handlers.go, writeError). */
export interface ApiErrorBody {
  code: string; // machine-readable, e.g. "booking_overlap"
  message: string; // Japanese, shown to the user as is
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | null,
  ) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = "ApiError";
  }
}

let csrfToken: string | null = null;

/**
 * The CSRF token comes from GET /api/v1/session, which answers
 * {"user": {...}, "csrfToken": "..."} after login. Call this once at start-up.
 */
export async function loadSession(): Promise<{ userId: number; displayName: string } | null> {
  const res = await request<{ user: { id: number; displayName: string }; csrfToken: string }>(
    "GET",
    "/session",
  ).catch((e: unknown) => {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  });
  if (res === null) return null;
  csrfToken = res.csrfToken;
  return { userId: res.user.id, displayName: res.user.displayName };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** 250 ms, 500 ms, 1000 ms, plus up to 100 ms of jitter so clients do not retry in step. */
function backoff(attempt: number): number {
  return RETRY_BASE_DELAY_MS * 2 ** attempt + Math.floor(Math.random() * 100);
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (!SAFE_METHODS.has(method)) {
    if (csrfToken === null) throw new Error("loadSession() must run before a state-changing request");
    headers["X-CSRF-Token"] = csrfToken;
  }
  const retries = method === "GET" ? MAX_RETRIES : 0;

  for (let attempt = 0; ; attempt++) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    try {
      const res = await fetch(API_BASE + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "same-origin",
        signal: controller.signal,
      });
      if (RETRYABLE_STATUS.has(res.status) && attempt < retries) {
        await sleep(backoff(attempt));
        continue;
      }
      if (res.status === 204) return undefined as T;
      const data = await res.json().catch(() => null);
      if (!res.ok) throw new ApiError(res.status, data as ApiErrorBody | null);
      return data as T;
    } catch (e) {
      if (e instanceof ApiError || attempt >= retries) throw e;
      await sleep(backoff(attempt));
    } finally {
      clearTimeout(timer);
    }
  }
}

// ---- Rooms and bookings -------------------------------------------------

/** Sort keys the API accepts; anything else gets 400 (server-side allow-list). */
export type BookingSort = "start_at" | "room_id" | "created_at";

export function listRooms(): Promise<Room[]> {
  return request<Room[]>("GET", "/rooms");
}

export function listMyBookings(page = 1, sort: BookingSort = "start_at"): Promise<Booking[]> {
  const q = new URLSearchParams({ page: String(page), limit: "20", sort });
  return request<Booking[]>("GET", `/bookings/mine?${q}`);
}

export function createBooking(roomId: number, startAt: string, endAt: string, memo: string) {
  return request<Booking>("POST", "/bookings", { roomId, startAt, endAt, memo });
}

export function cancelBooking(id: number): Promise<void> {
  return request<void>("DELETE", `/bookings/${id}`);
}

// ---- Rendering user text safely ------------------------------------------

/**
 * Show a booking memo. textContent, never innerHTML: the memo is user input and
 * Lecture 6 showed a stored XSS through exactly this field.
 */
export function renderMemo(el: HTMLElement, memo: string): void {
  el.textContent = memo.length > 200 ? memo.slice(0, 200) + "…" : memo;
}

/** Only http: and https: links may be rendered; javascript: URLs would run on click. */
export function safeHref(raw: string): string | null {
  try {
    const url = new URL(raw, window.location.origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

// ---- PKCE helpers -----------------------------------------------------------
// Used only by the Lab 5 exercise page /dev/pkce, which shows each step of the flow.
// The real "log in with the campus account" button leaves PKCE to the API server,
// which alone holds the tokens (BFF; Lecture 5 notes, chapter 3).

const VERIFIER_LENGTH = 64; // RFC 7636 allows 43..128 characters

function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A verifier of VERIFIER_LENGTH characters from 48 random bytes (48 * 4 / 3 = 64). */
export function createCodeVerifier(): string {
  const bytes = new Uint8Array(48);
  crypto.getRandomValues(bytes);
  return base64url(bytes).slice(0, VERIFIER_LENGTH);
}

/** code_challenge = BASE64URL(SHA-256(verifier)), sent with code_challenge_method=S256. */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}
