/** What to tell staff when the camera cannot be used; typing the pass ID always remains. */
export function cameraErrorMessage(error: unknown): string {
  const name = error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error) ? String((error as { name: unknown }).name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'Camera access was blocked. Allow the camera for this site in the browser settings, or type the pass ID below.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No camera was found on this device. Type the pass ID below.';
    case 'NotReadableError':
    case 'AbortError':
      return 'The camera is busy in another app. Close it and try again, or type the pass ID below.';
    case 'Unsupported':
      return 'This browser cannot use the camera here (it needs a secure https connection). Type the pass ID below.';
    default:
      return 'The camera could not be started. Type the pass ID below.';
  }
}

/** Whether this page may ask for the camera at all (a secure context with media devices). */
export function cameraSupported(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
}
