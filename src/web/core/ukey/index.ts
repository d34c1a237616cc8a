export { UkeyGuard } from './UkeyGuard';
export { UKEY_VALIDATED_EVENT, isUkeyValidated, type UkeyValidatedDetail } from './events';
export { KEY_REMOVED_ALERT, NO_DEVICE_ALERT, ukeyStep, type UkeyInput, type UkeyStep, type UkeyView } from './controller';
export { createTriesStore, pinPrompt, UKEY_TRIES_KEY, type TriesStore } from './tries';
export { connectUkeyService, type UkeyConnection } from './connection';
export type { ClientFrame, ServiceFrame } from './protocol';
