/**
 * Endpoint URLs the web app uses for files and services outside the JSON API (spec §3 "api endpoint
 * URLs", §9 build environment). Overridable at build time with VITE_* variables.
 */
const env = import.meta.env as Record<string, string | undefined>;

export const endpoints = {
  fileUpload: '/api/file/upload',
  fileDownload: '/api/file/download',
  fileView: '/api/file/view',
  filePlay: '/api/file/play',
  avatarUpload: '/api/users/updateAvatar',
  mobileUpload: '/api/file/mobileUpload',
  /** Base URL that file ids are appended to when building a link to a stored file. */
  imageBaseUrl: env.VITE_IMAGE_BASE_URL ?? '/api/file/view?id=',
  websocket: '/websocket',
  /** External online document preview service (kkFileView style): `?url=<base64 file URL>`. */
  filePreviewService: env.VITE_FILE_PREVIEW_URL ?? '/preview/onlinePreview',
  /** Single sign-on login service; its callback brings `?sessionId=` to the web root. */
  ssoLoginService: env.VITE_SSO_URL ?? '/cas/login',
} as const;
