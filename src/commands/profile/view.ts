// How a profile is shown: never with its key, only a mask.
import { maskKey, type Profile } from '../../config/profiles.js';
import type { Kit } from '../../io/output.js';

export interface ProfileView {
  name: string;
  current: boolean;
  baseUrl: string | null;
  deliveryUrl: string | null;
  domainId: string | null;
  envId: string | null;
  platform: string | null;
  user: string | null;
  apiKey: string | null;
  journal: string | null;
}

export function profileView(name: string, profile: Profile, current: boolean): ProfileView {
  return {
    name,
    current,
    baseUrl: profile.baseUrl ?? null,
    deliveryUrl: profile.deliveryUrl ?? null,
    domainId: profile.domainId ?? null,
    envId: profile.envId ?? null,
    platform: profile.platform ?? null,
    user: profile.user ?? null,
    apiKey: maskKey(profile.apiKey),
    journal: profile.journal ?? null,
  };
}

export function renderProfile(view: ProfileView, kit: Kit): string {
  return kit.record(view, [
    { label: 'name', get: (v) => `${v.name}${v.current ? ' (current)' : ''}` },
    { label: 'base URL', get: (v) => v.baseUrl },
    { label: 'delivery URL', get: (v) => v.deliveryUrl },
    { label: 'domain', get: (v) => v.domainId },
    { label: 'environment', get: (v) => v.envId },
    { label: 'platform', get: (v) => v.platform },
    { label: 'user', get: (v) => v.user },
    { label: 'API key', get: (v) => v.apiKey ?? '(none)' },
    { label: 'journal', get: (v) => v.journal ?? '(none: ahs journal init --env ENV starts one)' },
  ]);
}
