import { Camera, CameraOff, ScanLine, Square } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { cameraErrorMessage, cameraSupported } from './camera-errors.ts';

type Decoder = (
  data: Uint8ClampedArray,
  width: number,
  height: number,
  options?: { inversionAttempts?: 'dontInvert' | 'onlyInvert' | 'attemptBoth' | 'invertFirst' },
) => { data: string } | null;

/** jsQR, loaded on the first scan. The package is UMD: its export is the function itself, however the bundler wraps it. */
async function loadDecoder(): Promise<Decoder> {
  let found: unknown = await import('jsqr');
  while (typeof found === 'object' && found !== null && 'default' in found) found = (found as { default: unknown }).default;
  if (typeof found !== 'function') throw new Error('jsQR did not load');
  return found as Decoder;
}

type ScannerState =
  | { name: 'off' }
  | { name: 'starting' }
  | { name: 'scanning' }
  /** A code was read and sent; nothing more is read until staff tap Scan next. */
  | { name: 'paused' }
  | { name: 'error'; message: string };

export interface QrScannerProps {
  /** Called once per code read; scanning then waits for Scan next. */
  onCode: (text: string) => void;
  /** Called when staff tap Scan next (the last verdict can be cleared). */
  onScanNext: () => void;
  disabled?: boolean;
}

/** Frames are read at most this often: fast enough to feel instant, light on a phone's battery. */
const READ_INTERVAL_MS = 120;
/** Frames are scaled down to this width before decoding. */
const MAX_READ_WIDTH = 720;

/**
 * The door's camera: a live preview, each frame drawn to a canvas and read with jsQR. One code
 * read is sent once; then the scanner pauses until staff tap Scan next, so a pass held in front
 * of the camera is not checked again and again. Without a camera (or permission) it says why.
 */
export function QrScanner({ onCode, onScanNext, disabled = false }: QrScannerProps) {
  const [state, setState] = useState<ScannerState>({ name: 'off' });
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const frame = useRef<number | null>(null);
  const reading = useRef(false);
  /** Each start and stop is a new attempt; a camera that opens after Stop is closed again. */
  const attempt = useRef(0);
  const onCodeRef = useRef(onCode);
  // Written after commit, not during render (a render React throws away must not swap the callback).
  useLayoutEffect(() => {
    onCodeRef.current = onCode;
  }, [onCode]);

  const stopLoop = () => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
    frame.current = null;
  };

  const stop = useCallback(() => {
    attempt.current += 1;
    reading.current = false;
    stopLoop();
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = null;
    if (video.current) video.current.srcObject = null;
    setState({ name: 'off' });
  }, []);

  useEffect(() => stop, [stop]);

  const loop = useCallback((decode: Decoder) => {
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    let last = 0;
    const tick = (now: number) => {
      frame.current = requestAnimationFrame(tick);
      const preview = video.current;
      if (!reading.current || !context || !preview || preview.readyState < preview.HAVE_CURRENT_DATA) return;
      if (now - last < READ_INTERVAL_MS) return;
      last = now;
      const scale = Math.min(1, MAX_READ_WIDTH / (preview.videoWidth || MAX_READ_WIDTH));
      const width = Math.round(preview.videoWidth * scale);
      const height = Math.round(preview.videoHeight * scale);
      if (!width || !height) return;
      canvas.width = width;
      canvas.height = height;
      context.drawImage(preview, 0, 0, width, height);
      const found = decode(context.getImageData(0, 0, width, height).data, width, height, { inversionAttempts: 'attemptBoth' });
      if (!found?.data) return;
      reading.current = false;
      stopLoop();
      setState({ name: 'paused' });
      onCodeRef.current(found.data);
    };
    frame.current = requestAnimationFrame(tick);
  }, []);

  const start = async () => {
    if (!cameraSupported()) {
      setState({ name: 'error', message: cameraErrorMessage({ name: 'Unsupported' }) });
      return;
    }
    setState({ name: 'starting' });
    const mine = ++attempt.current;
    try {
      const [media, decoder] = await Promise.all([
        navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: false,
        }),
        loadDecoder(),
      ]);
      const preview = video.current;
      if (mine !== attempt.current || !preview) {
        for (const track of media.getTracks()) track.stop();
        return;
      }
      stream.current = media;
      preview.srcObject = media;
      await preview.play().catch(() => undefined);
      reading.current = true;
      setState({ name: 'scanning' });
      loop(decoder);
    } catch (error) {
      if (mine !== attempt.current) return;
      stop();
      setState({ name: 'error', message: cameraErrorMessage(error) });
    }
  };

  const scanNext = async () => {
    onScanNext();
    if (!stream.current) return;
    const decoder = await loadDecoder();
    reading.current = true;
    setState({ name: 'scanning' });
    loop(decoder);
  };

  const live = state.name === 'starting' || state.name === 'scanning' || state.name === 'paused';

  return (
    <div className="flex flex-col gap-3">
      <div
        className={cn(
          'relative overflow-hidden rounded-xl bg-neutral-950',
          live ? 'aspect-square max-h-[55svh] w-full sm:aspect-video' : 'hidden',
        )}
      >
        <video
          ref={video}
          muted
          playsInline
          aria-label="Camera preview"
          className={cn('size-full object-cover transition-opacity', state.name === 'paused' && 'opacity-40')}
        />
        {/* The aiming frame. */}
        <div aria-hidden="true" className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <div
            className={cn(
              'aspect-square w-3/5 max-w-72 rounded-2xl border-4 transition-colors',
              state.name === 'scanning' ? 'border-white/80 shadow-[0_0_0_9999px_rgba(0,0,0,0.35)]' : 'border-white/30',
            )}
          />
        </div>
        <p className="absolute inset-x-0 bottom-0 bg-linear-to-t from-black/70 to-transparent px-4 pt-8 pb-3 text-center text-sm font-medium text-white">
          {state.name === 'starting' && 'Starting the camera...'}
          {state.name === 'scanning' && 'Hold the pass QR code inside the frame'}
          {state.name === 'paused' && 'Code read. Tap Scan next for the next pass.'}
        </p>
      </div>

      {state.name === 'error' && (
        <p role="alert" className="flex gap-2.5 rounded-lg border border-amber-300/70 bg-amber-50 px-3.5 py-3 text-sm text-amber-950">
          <CameraOff className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />
          {state.message}
        </p>
      )}

      {live ? (
        <div className="grid grid-cols-2 gap-2">
          <Button
            size="lg"
            onClick={() => void scanNext()}
            disabled={state.name !== 'paused' || disabled}
            className="w-full"
          >
            <ScanLine aria-hidden="true" />
            Scan next
          </Button>
          <Button size="lg" variant="outline" onClick={stop} className="w-full">
            <Square aria-hidden="true" />
            Stop
          </Button>
        </div>
      ) : (
        <Button size="lg" className="w-full" onClick={() => void start()} disabled={disabled}>
          <Camera aria-hidden="true" />
          Scan QR code
        </Button>
      )}
    </div>
  );
}
