package io.muster.model;

/** Which of an instance's two VIP address lists: {@code vipAddress} or {@code secureVipAddress}. */
public enum VipKind {
    VIP,
    SECURE_VIP
}
