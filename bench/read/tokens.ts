import { SignJWT } from 'jose'

/** An HS256 token for one developer, valid for an hour (a bench run takes a few minutes). */
export const signToken = (developerId: string, secret: string): Promise<string> =>
  new SignJWT({ developer_id: developerId }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(secret))
