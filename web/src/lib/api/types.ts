/** Shapes the BFF returns (spec §3 + the server API notes). Mirrors `@ques/contracts` without pulling zod in. */

export interface User {
  _id: string;
  id: string;
  username: string;
  name: string;
  email: string;
  bio: string;
  avatarUrl: string;
  brandColorMain: string;
  brandColorLight: string;
  archiveProfile: boolean;
  createdAt: string;
  stripeAccountId?: string;
  stripeAccountStatus?: string;
}

export interface PublicProfile {
  _id: string;
  id: string;
  username: string;
  name: string;
  bio: string;
  avatarUrl: string;
  brandColorMain: string;
  brandColorLight: string;
  archiveProfile: boolean;
  /** Not exposed by the public endpoint; kept optional for spec §5 rule 5. */
  email?: string;
}

export interface Question {
  _id: string;
  question: string;
  detail?: string;
  answer?: string;
  source?: string;
  tags?: string[];
  toUsername: string;
  recipientName?: string;
  createdAt: string;
  updatedAt?: string;
  answeredAt?: string | null;
  tip?: number;
  status?: string;
  displayOnProfile?: boolean;
  deletedByReceiver?: boolean;
  isCurated?: boolean;
}

export interface TipOption {
  id: string | number;
  /** "$0", "$5" … or "Custom" */
  value: string;
  removable: boolean;
}

export interface TipOptionsResponse {
  tipOptions: TipOption[];
  tippingEnabled: boolean;
}

export interface MessageResponse {
  message: string;
}
