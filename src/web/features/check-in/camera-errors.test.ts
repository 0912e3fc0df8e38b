import { describe, expect, it } from 'vitest';
import { cameraErrorMessage, cameraSupported } from './camera-errors.ts';

describe('camera errors', () => {
  it('says why the camera cannot be used, and always points to typing the ID', () => {
    const denied = new Error('denied');
    denied.name = 'NotAllowedError';
    expect(cameraErrorMessage(denied)).toMatch(/blocked/);
    expect(cameraErrorMessage({ name: 'NotFoundError' })).toMatch(/No camera/);
    expect(cameraErrorMessage({ name: 'NotReadableError' })).toMatch(/busy/);
    expect(cameraErrorMessage({ name: 'Unsupported' })).toMatch(/https/);
    for (const error of [new Error('x'), 'text', null]) expect(cameraErrorMessage(error)).toMatch(/type the pass ID/i);
  });

  it('knows there is no camera without media devices', () => {
    expect(cameraSupported()).toBe(false);
  });
});
