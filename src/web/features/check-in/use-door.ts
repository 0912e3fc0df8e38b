import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_SCANS_PER_UPLOAD } from '../../../core/api/door.ts';
import type { CheckInResult } from '../../../core/events.ts';
import { clearDoorDeviceData } from '../../lib/door-device-data.ts';
import { clearSession, signOut } from '../../lib/session-api.ts';
import { toast } from '../../lib/toasts.ts';
import { type ApiFailure, downloadDoorPack, refusedSync, registerDevice, uploadScans, warmDoorReads } from './check-in-api.ts';
import { dropPackKey, holdPackKey, packKey } from './door-key.ts';
import { doorStore, type StoredPack } from './door-store.ts';
import { decideOffline, importPassKey, passIdOffline, type OfflinePack } from './offline-decision.ts';

/** How often a door online uploads what waits and refreshes its passes (a failed upload is retried then too). */
const SYNC_EVERY_MS = 30_000;
const UPLOAD_BATCH = Math.min(100, MAX_SCANS_PER_UPLOAD);
const WORKER_URL = '/check-in-sw.js';
const WORKER_SCOPE = '/check-in';

/** Where the door stands, always on screen. */
export interface DoorStatus {
  online: boolean;
  /** Passes on this device for the chosen event, and as of when; null before any download. */
  passes: number | null;
  packAt: string | null;
  /** Scans decided here that the server has not stored yet. */
  pending: number;
}

async function packInMemory(stored: StoredPack, eventName: string): Promise<OfflinePack> {
  const admitted = await doorStore.admittedAtEvent(stored.eventId);
  const passes = new Map(stored.passes.map((pass) => [pass.id, { name: pass.name, voided: pass.voided, usedAt: pass.usedAt ?? admitted.get(pass.id) ?? null }]));
  return { eventId: stored.eventId, eventName, passes, key: await importPassKey(stored.publicKey) };
}

/**
 * After a refused sync the device drops its key and packs (ADR 0029); the queue stays for when
 * the same person signs in again. A device the shop refuses (revoked, or another's) also signs
 * out, which clears everything, so whoever holds it must sign in again.
 */
async function forgetDevice(answer: ApiFailure): Promise<void> {
  dropPackKey();
  await doorStore.forgetPacks().catch(() => clearDoorDeviceData());
  if (answer.code !== 'device_refused') return;
  toast.error('This door device can no longer sync', { id: 'door-device-refused', description: answer.message || undefined });
  await signOut().catch(() => false);
  await clearSession();
}

/** Installs the door's service worker (scope /check-in only) and, once it controls the page, warms its cache. */
function useCheckInWorker() {
  useEffect(() => {
    const workers = navigator.serviceWorker;
    if (!workers || import.meta.env.DEV) return;
    workers.register(WORKER_URL, { scope: WORKER_SCOPE }).catch(() => undefined);
    if (workers.controller) warmDoorReads();
    workers.addEventListener('controllerchange', warmDoorReads);
    return () => workers.removeEventListener('controllerchange', warmDoorReads);
  }, []);
}

/**
 * The offline door (ADR 0014): keeps the chosen event's passes on the device (downloaded when an
 * event is chosen and whenever online), decides scans itself when the shop cannot be reached,
 * queues them with a nonce each, and uploads the queue by itself (when the network returns, and
 * every SYNC_EVERY_MS while anything waits).
 */
export function useDoor(event: { id: number; title: string } | null, staffUserId: string | null) {
  useCheckInWorker();
  const [online, setOnline] = useState(() => navigator.onLine);
  // `forEvent`: whose passes `passes` and `packAt` count (another event's are not shown).
  const [status, setStatus] = useState<Omit<DoorStatus, 'online'> & { forEvent: number | null }>({
    passes: null,
    packAt: null,
    pending: 0,
    forEvent: null,
  });
  const pack = useRef<OfflinePack | null>(null);
  const syncing = useRef(false);
  const syncAgain = useRef(false);
  const syncRef = useRef<() => Promise<void>>(async () => {});
  const eventId = event?.id ?? null;
  const eventTitle = event?.title ?? '';
  const [ready, setReady] = useState(false);

  // A device handed to another staff member keeps nothing of the last one's.
  useEffect(() => {
    if (!staffUserId) return;
    let live = true;
    void (async () => {
      const previous = await doorStore.staffId().catch(() => undefined);
      if (previous && previous !== staffUserId) await clearDoorDeviceData();
      await doorStore.setStaffId(staffUserId).catch(() => undefined);
      if (live) setReady(true);
    })();
    return () => {
      live = false;
    };
  }, [staffUserId]);

  const refreshCounts = useCallback(async () => {
    const pending = await doorStore.queueSize().catch(() => 0);
    const current = pack.current;
    setStatus((before) => ({ ...before, pending, passes: current && current.eventId === before.forEvent ? current.passes.size : before.passes }));
  }, []);

  const adoptPack = useCallback(
    async (stored: StoredPack) => {
      pack.current = await packInMemory(stored, eventTitle);
      setStatus((before) => ({ ...before, passes: stored.passes.length, packAt: stored.generatedAt, forEvent: stored.eventId }));
    },
    [eventTitle],
  );

  /** Uploads what waits, then downloads the event's passes. Quietly stops when the network fails. */
  const sync = useCallback(async (): Promise<void> => {
    if (!ready) return;
    // One sync at a time; one asked for meanwhile (say, the event was just chosen) runs right after.
    if (syncing.current) {
      syncAgain.current = true;
      return;
    }
    syncing.current = true;
    syncAgain.current = false;
    // Refused: the device's data is gone, and nothing here may open (so recreate) its database again.
    let dropped = false;
    const refused = async (answer: ApiFailure) => {
      dropped = true;
      pack.current = null;
      setStatus((before) => ({ ...before, passes: null, packAt: null }));
      await forgetDevice(answer);
    };
    try {
      const device = await doorStore.device();
      let key = await packKey(device.id);
      if (!key) {
        // This tab has no key for the device yet: registering binds the device (first use) and hands it out.
        const registered = await registerDevice(device);
        if (!registered.ok) return void (refusedSync(registered) && (await refused(registered)));
        key = await holdPackKey(device.id, registered.data.key);
      }
      for (;;) {
        const scans = await doorStore.queued(UPLOAD_BATCH);
        const answer = await uploadScans({ deviceId: device.id, label: device.label, eventId, scans });
        if (!answer.ok) {
          if (refusedSync(answer)) return void (await refused(answer));
          break;
        }
        await doorStore.dequeue(scans.map((scan) => scan.nonce));
        if (scans.length < UPLOAD_BATCH) break;
      }
      if (eventId !== null) {
        const answer = await downloadDoorPack(eventId, device.id);
        if (!answer.ok && refusedSync(answer)) return void (await refused(answer));
        if (answer.ok && answer.data.eventId === eventId) {
          // Without WebCrypto (no secure context) the pack stays in memory only: nothing readable rests on the device.
          if (key) await doorStore.savePack(answer.data, key);
          await adoptPack(answer.data);
        }
      }
    } catch {
      // Storage or network trouble: the next sync tries again; nothing queued is lost.
    } finally {
      syncing.current = false;
      if (!dropped) await refreshCounts();
    }
    if (syncAgain.current) return syncRef.current();
  }, [ready, eventId, adoptPack, refreshCounts]);

  syncRef.current = sync;

  // The chosen event's passes from the device at once, then fresh ones from the shop when it answers.
  useEffect(() => {
    pack.current = null;
    if (!ready) return;
    void (async () => {
      const key = eventId === null ? null : await doorStore.device().then((device) => packKey(device.id)).catch(() => null);
      const stored = eventId === null || !key ? undefined : await doorStore.pack(eventId, key).catch(() => undefined);
      if (stored) await adoptPack(stored);
      await refreshCounts();
      if (navigator.onLine) await sync();
    })();
  }, [ready, eventId, adoptPack, sync, refreshCounts]);

  useEffect(() => {
    const goOnline = () => {
      setOnline(true);
      void sync();
    };
    const goOffline = () => setOnline(false);
    window.addEventListener('online', goOnline);
    window.addEventListener('offline', goOffline);
    const timer = setInterval(() => {
      if (navigator.onLine) void sync();
    }, SYNC_EVERY_MS);
    return () => {
      window.removeEventListener('online', goOnline);
      window.removeEventListener('offline', goOffline);
      clearInterval(timer);
    };
  }, [sync]);

  /**
   * Decides a scan on the device and queues it. Null when the device has no passes for the event
   * yet (it never reached the shop since the event was chosen).
   */
  const decide = useCallback(
    async (text: string): Promise<CheckInResult | null> => {
      const current = pack.current;
      if (!current || current.eventId !== eventId) return null;
      const orderId = await passIdOffline(text, current.key);
      const now = new Date().toISOString();
      const result = decideOffline(current, orderId, now);
      if (result.result === 'valid') {
        current.passes.set(result.orderId, { ...current.passes.get(result.orderId)!, usedAt: now });
        await doorStore.admit(current.eventId, result.orderId, now);
      }
      await doorStore.enqueue({ nonce: crypto.randomUUID(), eventId: current.eventId, orderId, verdict: result.result, scannedAt: now });
      await refreshCounts();
      return result;
    },
    [eventId, refreshCounts],
  );

  /** What the shop answered online, kept on the device too, so the pass reads right if the network drops next. */
  const remember = useCallback(async (forEvent: number, result: CheckInResult) => {
    const current = pack.current;
    if (!current || current.eventId !== forEvent || result.result === 'invalid') return;
    const known = current.passes.get(result.orderId);
    if (result.result === 'voided') {
      current.passes.set(result.orderId, { name: result.name, usedAt: known?.usedAt ?? null, voided: true });
      return;
    }
    current.passes.set(result.orderId, { name: result.name, voided: false, usedAt: result.checkedInAt });
    await doorStore.admit(forEvent, result.orderId, result.checkedInAt).catch(() => undefined);
  }, []);

  const shown = status.forEvent === eventId ? status : { ...status, passes: null, packAt: null };
  return { status: { online, passes: shown.passes, packAt: shown.packAt, pending: status.pending } satisfies DoorStatus, decide, remember, sync };
}
