export { fetchChecklist, markOnboarding } from '../../lib/onboarding';
// The same calls Account Settings and the payment page make: the profile save, the avatar upload, the tipping switch.
export { saveTipping, tippingSaved, updateProfile, uploadAvatar } from '../../lib/owner-calls';
