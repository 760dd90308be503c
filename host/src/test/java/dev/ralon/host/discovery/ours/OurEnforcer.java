package dev.ralon.host.discovery.ours;

import org.example.spi.ThirdPartyEnforcer;

/** Stands for one of Ralon's own backends (its class is under dev.ralon.), named "mount". */
public class OurEnforcer extends ThirdPartyEnforcer {
    public OurEnforcer() {
        super("mount", 300);
    }
}
