import { useEffect, useState } from 'react';
import { cn } from '../lib/cn.ts';

export interface PassQrCodeProps {
  /** What the code holds: the pass's signed verification link. */
  value: string;
  passId: string;
  className?: string;
}

type QrImage = { value: string; src: string | null };

/** The QR as an SVG image: sharp at any size, on screen and on paper. */
async function renderQr(value: string): Promise<string> {
  // Loaded on demand: only a buyer who reaches a confirmation needs the encoder (the pass page loads it with its own code).
  const { default: QRCode } = await import('qrcode');
  // Encoding is the heaviest step of showing a pass: in a task of its own, not the render's that mounted the code, neither holds up a tap for long.
  await new Promise((resolve) => setTimeout(resolve));
  // One byte-mode segment: the same symbol size for a link as the encoder's own split into modes,
  // whose search costs a phone's first encode tens of milliseconds.
  const svg = await QRCode.toString([{ data: new TextEncoder().encode(value), mode: 'byte' }], {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
    color: { dark: '#0f0f1f', light: '#ffffff' },
  });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * The pass's QR code, which staff scan at the entrance. Square, on a white quiet zone, large enough
 * to read from a phone screen held at arm's length, and printed with the page.
 */
export function PassQrCode({ value, passId, className }: PassQrCodeProps) {
  const [image, setImage] = useState<QrImage | null>(null);

  useEffect(() => {
    let current = true;
    renderQr(value).then(
      (src) => current && setImage({ value, src }),
      () => current && setImage({ value, src: null }),
    );
    return () => {
      current = false;
    };
  }, [value]);

  const frame = cn('aspect-square w-full max-w-56 rounded-xl bg-white p-2 shadow-sm ring-1 ring-black/10 print:shadow-none', className);
  const ready = image?.value === value ? image : null;

  if (ready && ready.src === null) {
    // Without the image the pass still works: staff can type the ID printed beside it.
    return null;
  }
  if (!ready) {
    return <div className={cn(frame, 'animate-pulse bg-muted')} aria-hidden="true" />;
  }
  return (
    <div className={frame}>
      <img src={ready.src!} alt={`QR code for pass ${passId}`} width={224} height={224} className="size-full" draggable={false} />
    </div>
  );
}
